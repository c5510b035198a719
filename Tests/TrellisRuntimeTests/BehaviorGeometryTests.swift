import Foundation
import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles

/// A container whose `size(forChild:)` answers what no view can be: not a number, a negative
/// size, an infinite one — what a Swift port's division by zero makes.
private struct NotASize: ViewControllerBehavior {
    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        switch child {
        case "A": Size(.nan, parentSize.height)
        case "B": Size(-50, -1)
        default: Size(.infinity, 1e308)
        }
    }

    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
        vc.setPreferredContentSize(Size(.nan, 10))
        await vc.resize(child: "A", to: Size(10, -.infinity))
        _ = vc.sizeForChild("A", parentSize: Size(.infinity, 10))
        return true
    }
}

/// A presentation controller whose geometry is not a view's.
private struct NotAFrame: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width, .nan)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        Rect(x: .nan, y: 0, width: 100, height: 100)
    }

    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        pc.setPresentedViewFrame(Rect(x: 0, y: -.infinity, width: 10, height: 10))
        return true
    }
}

@Suite("SPEC §10: a size or frame from Swift code that no view can have is an error line, never a number in the trace")
struct BehaviorGeometryTests {
    @Test("the rule: finite and not negative sizes; finite origins, negative ones allowed")
    func rule() {
        #expect(BehaviorGeometry.problem(with: Size(320, 0)) == nil)
        #expect(BehaviorGeometry.problem(with: Size(.nan, 10)) == "its width is not a number")
        #expect(BehaviorGeometry.problem(with: Size(10, .infinity)) == "its height is infinite")
        #expect(BehaviorGeometry.problem(with: Size(10, -1)) == "its height is negative")
        #expect(BehaviorGeometry.problem(with: Size(-.infinity, 1)) == "its width is infinite")
        #expect(BehaviorGeometry.problem(with: Rect(x: -20, y: -5, width: 1, height: 1)) == nil)
        #expect(BehaviorGeometry.problem(with: Rect(x: 0, y: .nan, width: 1, height: 1)) == "its y is not a number")
        #expect(BehaviorGeometry.problem(with: Rect(x: .infinity, y: 0, width: -1, height: 1)) == "its width is negative")
        // The walk's cheap test agrees with the words, -0 (a size) and the largest finite included.
        for size in [Size(0, 0), Size(-0.0, 5), Size(5, -0.0), Size(.greatestFiniteMagnitude, 1), Size(.leastNonzeroMagnitude, 2),
                     Size(.nan, 1), Size(1, -.nan), Size(.infinity, 1), Size(1, -.infinity), Size(-1, 1), Size(1, -.leastNonzeroMagnitude)] {
            #expect(BehaviorGeometry.isSize(size) == (BehaviorGeometry.problem(with: size) == nil), "\(size)")
        }
    }

    @Test("size(forChild:) answers that are not sizes: an error each, the default's answer used, and every JSON Lines record is JSON")
    func sizeForChildAnswers() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R", children: ["A", "B", "C"], behavior: NotASize()),
                ControllerDescription("A"), ControllerDescription("B"), ControllerDescription("C"),
            ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Size(768, 1024), traits: nil))
        #expect(lines.filter { $0.contains("error") || $0.contains("sizeForChild") } == [
            "R error size(forChild: A) answered nanx1024, which is not a size: its width is not a number; the default's 768x1024 is used",
            "R sizeForChild(A, parent: 768x1024) -> 768x1024",
            "R error size(forChild: B) answered -50x-1, which is not a size: its width is negative; the default's 768x1024 is used",
            "R sizeForChild(B, parent: 768x1024) -> 768x1024",
            "R error size(forChild: C) answered infx1e+308, which is not a size: its width is infinite; the default's 768x1024 is used",
            "R sizeForChild(C, parent: 768x1024) -> 768x1024",
        ])
        for id in ["A", "B", "C"] {
            #expect(await window.frame(of: ControllerID(id)) == Rect(x: 0, y: 0, width: 768, height: 1024))
        }
        let requests = try await window.lines(of: .action("go", on: "R", value: nil))
        #expect(requests.filter { $0.contains("error") || $0.contains("warning") } == [
            "R error resize A: 10x-inf is not a size: its height is infinite",
            "R error sizeForChild: A's parent size: infx10 is not a size: its width is infinite",
            "R warning setPreferredContentSize: nanx10 is not a size: its width is not a number",
        ])
        try expectJSON(window.environment.recorder.events)
    }

    @Test("a presentation controller's size, frame and frame request that are not ones: an error or a refusal each, the default's used")
    func presentationGeometry() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R"),
                ControllerDescription(
                    "S", modalPresentationStyle: .custom,
                    presentationController: PresentationControllerDescription(shouldPresentInFullscreen: false, behavior: NotAFrame())),
            ]))
        await window.start()
        let presented = try await window.lines(of: .present("S", from: "R", animated: false, style: nil))
        let errors = presented.filter { $0.contains("error") }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy {
            $0.hasPrefix("pc:S error size(forPresented: S) answered: 1024xnan is not a size: its height is not a number")
                || $0.hasPrefix("pc:S error frameOfPresentedViewInContainerView answered: nan,0 100x100 is not a frame: its x is not a number")
        }, "\(errors)")
        let presentation = try #require(await window.presentationController(presenting: "S"))
        let frame = await presentation.presentedViewFrame
        #expect(BehaviorGeometry.problem(with: frame) == nil)
        let refused = try await window.lines(of: .action("go", on: "pc:S", value: nil))
        #expect(refused.filter { $0.contains("warning") } == ["pc:S warning setPresentedViewFrame: 0,-inf 10x10 is not a frame: its y is infinite"])
        try expectJSON(window.environment.recorder.events)
    }

    /// Every event's JSON Lines record parses as JSON (JSON has no NaN or infinity).
    private func expectJSON(_ events: [TraceEvent]) throws {
        for event in events {
            let line = TraceCaptureFormat.line(for: event, runID: "geometry")
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }
}
