import ArgumentParser
import TrellisDistributed
import Foundation
import TrellisModel
import TrellisRuntime
import TrellisScreenPicture
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles

/// `trellis trace export`: a recorded run for standard viewers, or a picture of the screen.
struct TraceExportCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace (Perfetto/Chrome JSON, Mermaid, PlantUML) or draw the simulated screen (SVG).",
        discussion: """
            perfetto: open the file in ui.perfetto.dev (one track per controller, grouped by node, \
            flow arrows for causality, instants for suppressions and warnings). mermaid, plantuml: \
            sequence diagrams, optionally limited with --step and --controller. svg: the frames on \
            screen after --step of --scenario, which is run in this process to get there; svg \
            reads no trace file (a trace keeps each controller's frame in its container, not which \
            children a container shows or what a presentation covers), so naming one is an error \
            (exit 2) rather than a file silently ignored. To see the frames a trace carries: \
            \(ProgramName.current) trace show FILE --frames.

            EXAMPLES:
              \(ProgramName.current) trace export run.jsonl --format perfetto -o run.perfetto.json
              \(ProgramName.current) trace export run.jsonl --format mermaid --step 1 --controller R
              \(ProgramName.current) trace export --format svg --scenario s.json --step 1 -o screen.svg
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case perfetto, mermaid, plantuml, svg
    }

    @Argument(help: "Capture files (perfetto, mermaid, plantuml; svg takes none: it runs --scenario).", completion: .file())
    var files: [String] = []

    @Option(help: "perfetto, mermaid, plantuml or svg.")
    var format: Format

    // `.unconditional`: `--step -1` is the option's value, which the range check names.
    @Option(parsing: .unconditional, help: "Only this step, or a range N-M (diagrams); the step after which to draw the screen (svg).")
    var step: String?

    @Option(help: "Only messages between these controllers (diagrams; repeatable).")
    var controller: [String] = []

    @Option(help: "Only the controllers reached from this one's events, itself included (diagrams; repeatable).")
    var subtree: [String] = []

    @Option(help: "svg: the scenario file to run up to --step.", completion: .file(extensions: ["json", "yaml", "yml"]))
    var scenario: String?

    @Option(name: .shortAndLong, help: "Write here instead of standard output.", completion: .file())
    var output: String?

    func validate() throws {
        if format == .svg {
            // Refused rather than ignored: a user naming a trace expects the picture of that trace.
            if let file = files.first {
                let missing = FileManager.default.fileExists(atPath: file) ? "" : " (and \(file) does not exist)"
                throw ValidationError(
                    "svg draws the screen by running --scenario up to --step; it reads no trace file, so \(file) would be ignored\(missing): leave it out")
            }
            guard scenario != nil else { throw ValidationError("svg needs --scenario FILE (and --step N)") }
            if let step, Int(step) == nil, (try? StepRange.parse(step)) != nil {
                throw ValidationError("svg draws the screen after one step: --step \(step) is a range; give one step N")
            }
            guard step.map({ (Int($0) ?? -1) >= 0 }) ?? true else { throw ValidationError("svg needs --step N with N ≥ 0") }
        } else {
            guard !files.isEmpty else { throw ValidationError("name at least one trace file") }
            _ = try steps()
        }
    }

    private func steps() throws -> ClosedRange<Int>? {
        try step.map(StepRange.parse)
    }

    func run(registry: BehaviorRegistry) async throws {
        let text: String
        var traceFile: TraceFile?  // what was read, to end with exit 2 if damaged
        switch format {
        case .svg:
            text = try await screenPicture(registry: registry)
        case .perfetto, .mermaid, .plantuml:
            let file = try TraceInput.read(files, damage: .printWhatIsRead)
            traceFile = file
            let tree = try TraceInput.tree(file.events)
            let limit = try steps()
            var named = TraceFilter()
            named.controllers = Set(controller.map { ControllerID($0) })
            named.subtrees = Set(subtree.map { ControllerID($0) })
            named.steps = limit
            try TraceInput.refuseAbsent(named, in: tree.events)
            var chosen = Set(controller.map { ControllerID($0) })
            if !subtree.isEmpty {
                // The controllers that the subtree roots' events reached, through causality.
                var filter = TraceFilter()
                filter.subtrees = Set(subtree.map { ControllerID($0) })
                chosen.formUnion(filter.keep(in: tree).map { tree.events[$0].controller })
            }
            let controllers = chosen.isEmpty ? nil : chosen
            switch format {
            case .perfetto: text = PerfettoExport.json(tree)
            case .mermaid: text = MermaidExport.sequenceDiagram(tree, steps: limit, controllers: controllers)
            default: text = PlantUMLExport.sequenceDiagram(tree, steps: limit, controllers: controllers)
            }
        }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                StandardError.write("error: cannot write \(output)")
                throw ExitCode(2)
            }
        } else {
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
        if let traceFile { try TraceInput.finish(traceFile) }
    }

    private func screenPicture(registry: BehaviorRegistry) async throws -> String {
        let path = scenario ?? ""
        let loaded: Scenario
        do {
            loaded = try ScenarioDecoder.load(path: path, registry: registry)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        let after = step.flatMap { Int($0) } ?? loaded.steps.count
        do {
            let screen = try await ScenarioRunner.screen(after: after, of: loaded)
            return ScreenPicture.svg(screen.frames, windowSize: screen.windowSize, title: "\(loaded.name) — after step \(after)")
        } catch {
            StandardError.write("error: \(path): \(error)")
            throw ExitCode(2)
        }
    }
}
