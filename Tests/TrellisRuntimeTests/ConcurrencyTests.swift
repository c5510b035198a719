import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace

/// SPEC §4: events for one window are processed one at a time, in order; different windows may
/// run concurrently, each with a deterministic trace.
@Suite("windows and their event queues")
struct ConcurrencyTests {
    static func phoneWindow() async throws -> Window {
        try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A", "B"]),
            ControllerDescription("A", children: ["A1"]),
            ControllerDescription("A1"), ControllerDescription("B"),
        ]))
    }

    static func padWindow() async throws -> Window {
        try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "S",
            controllers: [
                ControllerDescription("S", kind: .split, children: ["M", "D"]),
                ControllerDescription("M", kind: .navigation, children: ["M1", "M2"]),
                ControllerDescription("M1"), ControllerDescription("M2"), ControllerDescription("D"),
            ]))
    }

    /// Rotations back and forth, with and without trait changes.
    static func rotations(_ count: Int, portrait: Size, landscape: Size, compactAxis: TraitCollection) -> [WindowEvent] {
        (0..<count).map { index in
            let size = index.isMultiple(of: 2) ? landscape : portrait
            return index.isMultiple(of: 3) ? .environmentChange(size: size, traits: nil) : .environmentChange(size: size, traits: compactAxis)
        }
    }

    static let phoneEvents = rotations(
        24, portrait: Phone.size, landscape: Phone.landscapeSize, compactAxis: TraitCollection(verticalSizeClass: .compact))
    static let padEvents: [WindowEvent] = (0..<24).map { index in
        index.isMultiple(of: 2)
            ? .environmentChange(size: Size(507, 768), traits: TraitCollection(horizontalSizeClass: .compact))
            : .environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .regular))
    }

    static func run(_ window: Window, _ events: [WindowEvent]) async throws -> [String] {
        await window.start()
        for event in events {
            try await window.perform(event)
        }
        return window.environment.recorder.canonicalLines
    }

    @Test("two windows running concurrently each produce the trace they produce alone")
    func twoWindowsConcurrently() async throws {
        let phoneAlone = try await Self.run(Self.phoneWindow(), Self.phoneEvents)
        let padAlone = try await Self.run(Self.padWindow(), Self.padEvents)
        // Hand-derived anchor for the phone's first rotation, so "the same as alone" is not vacuous.
        let firstRotation = [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A", "A1", "B")
        let initialCount = phoneAlone.firstIndex(of: "R viewWillTransition(to: 568x320)") ?? 0
        #expect(Array(phoneAlone[initialCount..<(initialCount + firstRotation.count)]) == firstRotation)
        // The pad's collapsed split messages M (a navigation controller: its top M2 only), never D.
        #expect(padAlone.contains("S sizeForChild(M, parent: 507x768) -> 507x768"))
        #expect(padAlone.contains("M2 viewWillTransition(to: 507x768)"))
        #expect(!padAlone.contains("M1 viewWillTransition(to: 507x768)"))
        #expect(!padAlone.contains("D viewWillTransition(to: 507x768)"))

        for _ in 0..<5 {
            let phone = try await Self.phoneWindow()
            let pad = try await Self.padWindow()
            async let phoneLines = Self.run(phone, Self.phoneEvents)
            async let padLines = Self.run(pad, Self.padEvents)
            let (concurrentPhone, concurrentPad) = try await (phoneLines, padLines)
            #expect(concurrentPhone == phoneAlone)
            #expect(concurrentPad == padAlone)
        }
    }

    @Test("events sent to one window at the same time are handled one at a time: their traces never interleave")
    func oneWindowSerializesEvents() async throws {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", children: ["A1"]),
            ControllerDescription("A1"),
        ]))
        await window.start()
        let before = window.environment.recorder.count
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await window.perform(.environmentChange(size: Size(Double(300 + index), 500), traits: nil))
                }
            }
            try await group.waitForAll()
        }
        let lines = window.environment.recorder.events(after: before).map(\.canonicalLine)
        // Every event is a whole pass: R's new size, then A's and A1's, each pass complete before the next.
        var current: String?
        var passes = 0
        for line in lines where line.contains("viewWillTransition(to: ") {
            let size = String(line.split(separator: " ").last ?? "").dropLast()
            if line.hasPrefix("R ") {
                current = String(size)
                passes += 1
            } else {
                #expect(String(size) == current, "\(line) inside the pass of \(current ?? "nothing")")
            }
        }
        #expect(passes == 16)
        #expect(lines.filter { $0.hasPrefix("A1 viewWillTransition") }.count == 16)
    }

    /// The executor an actor runs on, as bits: `UnownedSerialExecutor` is a plain reference
    /// with no equality of its own.
    static func executorBits(_ actor: some Actor) -> [UInt8] {
        withUnsafeBytes(of: actor.unownedExecutor) { Array($0) }
    }

    @Test("the actors of one window share its executor; another window has its own")
    func oneExecutorPerWindow() async throws {
        let phone = try await Self.phoneWindow()
        let pad = try await Self.padWindow()
        let windowExecutor = Self.executorBits(phone)
        for id: ControllerID in ["R", "A", "A1", "B"] {
            #expect(Self.executorBits(try await phone.controller(id)) == windowExecutor, "\(id)")
        }
        #expect(Self.executorBits(try await pad.controller("S")) == Self.executorBits(pad))
        #expect(Self.executorBits(pad) != windowExecutor)
        // Sharing is not serialising the windows: both still run at once (above), and a window's
        // controllers still answer while another window is mid-event.
        await phone.start()
        await pad.start()
        async let phoneDone: Void = phone.perform(.environmentChange(size: Size(568, 320), traits: nil))
        async let padDone: Void = pad.perform(.environmentChange(size: Size(507, 768), traits: nil))
        _ = try await (phoneDone, padDone)
        #expect(try await phone.controller("A1").size == Size(568, 320))
        // A presentation controller, made while the window runs, joins the window's executor too.
        let presenting = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]), ControllerDescription("A"), ControllerDescription("P"),
        ]))
        await presenting.start()
        try await presenting.perform(.present("P", from: "R", animated: false, style: .fullScreen))
        let presentationController = try #require(await presenting.presentationController(presenting: "P"))
        #expect(Self.executorBits(presentationController) == Self.executorBits(presenting))
        #expect(Self.executorBits(try await presenting.controller("P")) == Self.executorBits(presenting))
    }

    /// With one executor per window, a hop to a child runs in place: it must stay an async call
    /// (a tail call that keeps no native frame), or a deep chain would run out of thread stack.
    @Test("a chain 20,000 controllers deep is resized and laid out")
    func deepChain() async throws {
        let depth = 20_000
        let controllers = (0..<depth).map { index in
            ControllerDescription(ControllerID("c\(index)"), children: index + 1 < depth ? [ControllerID("c\(index + 1)")] : [])
        }
        let window = try await Window(Phone.hierarchy(controllers, root: "c0"))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines.filter { $0.hasSuffix("viewWillTransition(to: 568x320)") }.count == depth)
        #expect(lines.filter { $0.hasSuffix("viewDidLayoutSubviews") }.count == depth)
        #expect(try await window.controller(ControllerID("c\(depth - 1)")).size == Phone.landscapeSize)
    }
}
