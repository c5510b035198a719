import Foundation
import Testing
import TrellisScenario
import TrellisTestSupport

/// The differential tester (SPEC §7 "every scenario and every placement", CONFORMANCE 36):
/// random scenarios over random placements give the in-process trace, line for line. CI runs
/// the fixed seeds below; `scripts/soak.sh N` runs N more (`TRELLIS_SOAK_SEEDS`, from
/// `TRELLIS_SOAK_FIRST`; over loopback with `TRELLIS_SOAK_MEDIUM=loopback`), and
/// `TRELLIS_SEED=S` runs seed S alone.
// A suite's time limit caps its tests': a soak asked for (`scripts/soak.sh`) keeps its own.
@Suite(.tags(.multiProcess, .slow), .selected(.multiProcess, .slow), SoakSettings.current == nil ? .distributedHangGuard : .timeLimit(.minutes(600)))
struct DifferentialTests {
    /// Fixed sets, so that CI is repeatable. Over ZeroMQ each seed costs one run of spawned
    /// processes (about a second): a few dozen keep the sockets, the processes and their codec
    /// honest. Over a loopback network (every node in this process, every message still encoded
    /// and decoded) a seed costs milliseconds: many more seeds search the rules.
    static let zeroMQSeeds: [UInt64] = Array(1...24)
    static let loopbackSeeds: [UInt64] = Array(1...400)

    @Test("a random scenario over a random placement of processes gives the in-process trace", arguments: zeroMQSeeds)
    func randomScenarioMatchesInProcess(_ seed: UInt64) async throws {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: try options()) {
            Issue.record("\(mismatch)")
        }
    }

    @Test("a random scenario over a random placement of in-process nodes gives the in-process trace", arguments: loopbackSeeds)
    func randomScenarioOverLoopbackMatchesInProcess(_ seed: UInt64) async throws {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: loopbackOptions()) {
            Issue.record("over loopback: \(mismatch)")
        }
    }

    /// Swift behaviours on every node (SPEC §4.1, §7): the seeds' scenarios with named
    /// behaviours, over in-process nodes built with the test registry, give the in-process trace.
    static let namedLoopbackSeeds: [UInt64] = Array(1...200)

    @Test("a random scenario naming Swift behaviours over in-process nodes gives the in-process trace", arguments: namedLoopbackSeeds)
    func namedBehavioursOverLoopbackMatchInProcess(_ seed: UInt64) async throws {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: loopbackOptions(), namingBehaviors: true) {
            Issue.record("over loopback, named behaviours: \(mismatch)")
        }
    }

    /// The same over ZeroMQ: spawned processes of the test runner, which registers them.
    static let namedZeroMQSeeds: [UInt64] = Array(1...6)

    @Test("a random scenario naming Swift behaviours over processes of the runner gives the in-process trace", arguments: namedZeroMQSeeds)
    func namedBehavioursOverZeroMQMatchInProcess(_ seed: UInt64) async throws {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: try runnerOptions(), namingBehaviors: true) {
            Issue.record("over ZeroMQ, named behaviours: \(mismatch)")
        }
    }

    @Test("named behaviours keep the seed's hierarchy, steps and placement, and use every name")
    func theNamingGeneratorReachesEveryBehaviour() throws {
        var used = Set<String>()
        for seed: UInt64 in 0..<200 {
            let plain = ScenarioGenerator.scenario(seed: seed), named = ScenarioGenerator.scenarioNamingBehaviors(seed: seed)
            #expect(named.placementDescription == plain.placementDescription)
            #expect(named.text == ScenarioGenerator.scenarioNamingBehaviors(seed: seed).text)
            let scenario = try ScenarioDecoder.decode(named.text, file: "seed-\(seed).json", registry: DifferentialBehaviors.registry)
            let withoutActions = scenario.steps.filter { step in
                if case .event(.action) = step { return false }
                return true
            }
            #expect(withoutActions == (try ScenarioDecoder.decode(plain.text, file: "seed-\(seed).json")).steps)
            #expect(withoutActions.count < scenario.steps.count)
            #expect(!scenario.behaviorNames.isEmpty)
            used.formUnion(scenario.behaviorNames.map(\.name))
        }
        #expect(used == Set(DifferentialBehaviors.registry.names.map(\.name)))
    }

    /// The named seeds are not the plain ones under other names: the behaviours' code runs.
    @Test func theNamedBehavioursRun() async throws {
        var suppressed = false, requested = false, differs = 0
        for seed: UInt64 in 1...40 {
            let named = ScenarioGenerator.scenarioNamingBehaviors(seed: seed), plain = ScenarioGenerator.scenario(seed: seed)
            let lines = try await ScenarioRunner.run(
                try ScenarioDecoder.decode(named.text, file: "named.json", registry: DifferentialBehaviors.registry)).canonicalLines
            let plainLines = try await ScenarioRunner.run(try ScenarioDecoder.decode(plain.text, file: "plain.json")).canonicalLines
            suppressed = suppressed || lines.contains { $0.contains("keeps landscape to itself") }
            // An action a behaviour handles with a request (SPEC §4.2).
            requested = requested || lines.contains { $0.contains(" request ") }
            if lines.dropFirst() != plainLines.dropFirst() { differs += 1 }
        }
        #expect(suppressed)
        #expect(requested)
        #expect(differs > 20, "only \(differs) of 40 named seeds trace otherwise than their plain scenario")
    }

    @Test func theGeneratorIsDeterministicAndStaysSmall() throws {
        for seed: UInt64 in 0..<200 {
            let first = ScenarioGenerator.scenario(seed: seed), second = ScenarioGenerator.scenario(seed: seed)
            #expect(first.text == second.text)
            let scenario = try ScenarioDecoder.decode(first.text, file: "seed-\(seed).json")
            #expect(scenario.controllers.count <= ScenarioGenerator.maxControllers)
            #expect(scenario.steps.count <= ScenarioGenerator.maxSteps)
            let nodes = Set(scenario.placement.values).union(["main"])
            #expect((2...4).contains(nodes.count))
        }
    }

    /// Over many seeds the generator reaches every container kind, presentation style and step.
    @Test func theGeneratorCoversTheFormat() throws {
        var seen = Set<String>()
        for seed: UInt64 in 0..<500 {
            let text = ScenarioGenerator.scenario(seed: seed).text
            for word in Self.coverage where text.contains(word) { seen.insert(word) }
        }
        #expect(Set(Self.coverage).subtracting(seen).isEmpty, "never generated: \(Set(Self.coverage).subtracting(seen).sorted())")
    }

    static let coverage = [
        "\"navigation\"", "\"split\"", "\"tab\"", "\"row\"", "\"column\"", "\"origins\"",
        "\"fullScreen\"", "\"pageSheet\"", "\"formSheet\"", "\"currentContext\"", "\"custom\"", "\"overFullScreen\"",
        "\"overCurrentContext\"", "\"popover\"", "\"automatic\"", "\"popoverSource\"", "\"sizeForChild\"", "\"frame\"",
        "\"definesPresentationContext\"", "\"noSuper\"", "\"forwardTo\"", "\"perChild\"", "\"traitOverrides\"",
        "\"overrideTraits\"", "\"grant\"", "\"adaptiveDelegate\"", "\"wrapIn\"",
        "\"resizeWindow\"", "\"setTraits\"", "\"transition\"", "\"present\"", "\"dismiss\"", "\"show\"", "\"showDetail\"",
        "\"push\"", "\"pop\"", "\"select\"", "\"setPreferredContentSize\"", "\"setTraitOverride\"",
        "\"systemLayoutFittingSizeDidChange\"",
    ]

    /// The soak: many seeds on demand (`scripts/soak.sh`), two runs at a time, every mismatch
    /// reported. Off unless `TRELLIS_SOAK_SEEDS` or `TRELLIS_SEED` is set.
    @Test(.enabled(if: SoakSettings.current != nil), .timeLimit(.minutes(600)))
    func soak() async throws {
        let settings = try #require(SoakSettings.current)
        let options = try settings.medium.options()
        var mismatches = 0
        var checked = 0
        try await withThrowingTaskGroup(of: DifferentialCheck.Mismatch?.self) { group in
            var seeds = settings.seeds.makeIterator()
            for _ in 0..<settings.parallel {
                guard let seed = seeds.next() else { break }
                group.addTask { await DifferentialCheck.check(seed: seed, options: options, verbose: settings.verbose) }
            }
            while let outcome = try await group.next() {
                checked += 1
                if let mismatch = outcome {
                    mismatches += 1
                    Issue.record("\(mismatch)")
                }
                if checked % 50 == 0 { print("soak: \(checked) of \(settings.seeds.count) seeds, \(mismatches) mismatches") }
                if let seed = seeds.next() {
                    group.addTask { await DifferentialCheck.check(seed: seed, options: options, verbose: settings.verbose) }
                }
            }
        }
        print("soak: \(checked) seeds (\(settings.seeds.lowerBound)...\(settings.seeds.upperBound)), \(mismatches) mismatches")
    }
}

/// Which seeds the soak runs, from the environment.
struct SoakSettings {
    var seeds: ClosedRange<UInt64>
    var parallel: Int
    /// One seed alone: its scenario and line counts are printed even when the runs agree.
    var verbose = false
    /// Over ZeroMQ unless `TRELLIS_SOAK_MEDIUM=loopback`.
    var medium = Medium.zeroMQ

    static let current: SoakSettings? = {
        let environment = ProcessInfo.processInfo.environment
        let parallel = environment["TRELLIS_SOAK_PARALLEL"].flatMap(Int.init).map { max(1, $0) } ?? 2
        let medium = environment["TRELLIS_SOAK_MEDIUM"].flatMap(Medium.init(rawValue:)) ?? .zeroMQ
        if let seed = environment["TRELLIS_SEED"].flatMap(UInt64.init) {
            return SoakSettings(seeds: seed...seed, parallel: 1, verbose: true, medium: medium)
        }
        guard let count = environment["TRELLIS_SOAK_SEEDS"].flatMap(UInt64.init), count > 0 else { return nil }
        let first = environment["TRELLIS_SOAK_FIRST"].flatMap(UInt64.init) ?? 1_000
        return SoakSettings(seeds: first...(first + count - 1), parallel: parallel, medium: medium)
    }()
}
