import ArgumentParser
import Foundation
import TrellisModel
import TrellisTrace

/// `trellis trace`: inspect recorded runs (SPEC §6).
struct TraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Inspect traces recorded with `trellis run --trace FILE` (JSON Lines).",
        discussion: """
            Several files (one per process of a distributed run) are merged by causality. A \\
            corrupt line is reported with its file and line number on standard error and the \\
            rest is still read.
            """,
        subcommands: [TraceShowCommand.self, TraceFollowCommand.self, TraceMergeCommand.self, TraceDiffCommand.self, TraceExportCommand.self]
    )
}

/// Reading trace files for the subcommands: problems go to standard error, unreadable files exit 2.
enum TraceInput {
    static func read(_ paths: [String]) throws -> TraceFile {
        let file: TraceFile
        do {
            file = try TraceFileReader.read(paths: paths)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        for problem in file.problems {
            StandardError.write("warning: \(problem) (line skipped)")
        }
        return file
    }

    /// The trace as a causal tree; a damaged trace whose causes form a cycle exits 2 naming an
    /// event of the cycle (its events would otherwise be under no root, printed as nothing).
    static func tree(_ events: [TraceEvent]) throws -> CausalTree {
        let tree = CausalTree(events)
        if let cycle = tree.cycle {
            StandardError.write("error: the trace is damaged: the causes of \(events[cycle].id) lead back to it (a cycle of causes)")
            throw ExitCode(2)
        }
        return tree
    }
}

/// The filter options shared by `show`.
struct TraceFilterOptions: ParsableArguments {
    @Option(help: "Only this controller's events (repeatable).")
    var controller: [String] = []

    @Option(help: "This controller's events and everything they caused (repeatable).")
    var subtree: [String] = []

    @Option(help: "Only these message names or kinds (viewWillTransition, delivery, query…; repeatable).")
    var kind: [String] = []

    @Option(help: "Only this step, or a range N-M (0 is the initial layout).")
    var step: String?

    @Option(help: "Only this transition id (repeatable).")
    var transition: [Int] = []

    @Option(help: "Only events recorded on this node (repeatable).")
    var node: [String] = []

    func filter() throws -> TraceFilter {
        var filter = TraceFilter()
        filter.controllers = Set(controller.map { ControllerID($0) })
        filter.subtrees = Set(subtree.map { ControllerID($0) })
        filter.kinds = Set(kind)
        filter.transitions = Set(transition)
        filter.nodes = Set(node)
        filter.steps = try step.map(StepRange.parse)
        return filter
    }
}

/// `--step N` or `--step N-M`.
enum StepRange {
    static func parse(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
        guard let low = parts.first ?? nil, low >= 0 else {
            throw ValidationError("--step must be N or N-M with 0 ≤ N ≤ M, got \"\(text)\"")
        }
        guard parts.count == 2 else { return low...low }
        guard let high = parts[1], high >= low else {
            throw ValidationError("--step must be N or N-M with 0 ≤ N ≤ M, got \"\(text)\"")
        }
        return low...high
    }
}

struct TraceShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a trace as canonical lines, or as an indented causal tree.",
        discussion: """
            --tree indents two spaces a level; past 32 levels the indent stays at 32 levels and \
            the depth is printed as a number ("[40] A viewDidLayoutSubviews"), so the output of a \
            deep cause chain grows with its length only.
            """)

    @Argument(help: "Capture files (JSON Lines).")
    var files: [String]

    @Flag(help: "Indent each event under the event that caused it.")
    var tree = false

    @Flag(help: "Print each event's id (main#42) before its line, to give to `trellis trace follow`.")
    var ids = false

    @Flag(help: "After each view controller's layout callback, the frame its container gave it (R60): x,y WxH in the container's coordinates.")
    var frames = false

    @OptionGroup var filterOptions: TraceFilterOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one trace file") }
        _ = try filterOptions.filter()
    }

    /// The event's canonical line, with its frame when asked for and it has one.
    private func text(_ event: TraceEvent) -> String {
        let line = ids ? "\(event.id)  " + event.canonicalLine : event.canonicalLine
        guard frames, let frame = event.message.frame else { return line }
        return line + "  frame " + frame.description
    }

    func run() async throws {
        let file = try TraceInput.read(files)
        let filter = try filterOptions.filter()
        let causal = try TraceInput.tree(file.events)
        let kept = filter.keep(in: causal)
        var output = OutputBuffer()
        if tree {
            let keepHeaders = Set(kept.map { causal.events[$0].step })
            let lines = causal.indentedLines(including: { position in
                if case .step = causal.events[position].message { return filter.isEmpty || keepHeaders.contains(causal.events[position].step) }
                return kept.contains(position)
            }, text: text)
            for line in lines { output.line(line) }
        } else {
            let stepsWithEvents = Set(kept.map { causal.events[$0].step })
            for (position, event) in causal.events.enumerated() {
                if case .step = event.message {
                    if filter.isEmpty || stepsWithEvents.contains(event.step) { output.line(text(event)) }
                } else if kept.contains(position) {
                    output.line(text(event))
                }
            }
        }
        output.flush()
    }
}

struct TraceFollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Show one event's causes (up to its step) and everything it caused.",
        discussion: "EVENT is node#sequence (main#12), or a sequence number when the trace has one node.")

    @Argument(help: "Capture files, then the event.")
    var arguments: [String]

    func validate() throws {
        guard arguments.count >= 2 else { throw ValidationError("name the trace file(s) and then the event") }
    }

    func run() async throws {
        let file = try TraceInput.read(Array(arguments.dropLast()))
        let name = arguments[arguments.count - 1]
        let causal = try TraceInput.tree(file.events)
        let nodes = Set(file.events.map(\.id.node))
        var reference = TraceCaptureFormat.eventRef(name)
        if reference == nil, let sequence = UInt64(name.hasPrefix("#") ? String(name.dropFirst()) : name), nodes.count == 1, let node = nodes.first {
            reference = EventRef(node: node, sequence: sequence)
        }
        guard let reference, let position = causal.position(of: reference) else {
            StandardError.write("error: no event \(name) in the trace (write node#sequence; nodes: \(nodes.sorted().joined(separator: ", ")))")
            throw ExitCode(2)
        }
        var output = OutputBuffer()
        output.line("causes:")
        for (depth, cause) in causal.causes(of: position).enumerated() {
            output.line(CausalTree.indent(depth + 1) + "\(causal.events[cause].id)  " + causal.events[cause].canonicalLine)
        }
        output.line("event:")
        output.line("  \(reference)  " + causal.events[position].canonicalLine)
        output.line("effects:")
        for effect in causal.effects(of: position) {
            output.line(CausalTree.indent(effect.depth) + "\(causal.events[effect.position].id)  " + causal.events[effect.position].canonicalLine)
        }
        output.flush()
    }
}

struct TraceMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge per-process capture files into one, ordered by causality.")

    @Argument(help: "Capture files to merge.")
    var files: [String]

    @Option(name: .shortAndLong, help: "Write the merged trace here instead of standard output.")
    var output: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one trace file") }
    }

    func run() async throws {
        let file = try TraceInput.read(files)
        let runID = file.runIDs.first ?? "merged"
        let text = file.events.map { TraceCaptureFormat.line(for: $0, runID: runID) + "\n" }.joined()
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                StandardError.write("error: cannot write \(output)")
                throw ExitCode(2)
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

struct TraceDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces step by step, aligned by causal order, not by time.",
        discussion: "Exit status 0 when they are the same, 1 when they differ. Use --left/--right to give several files per side.")

    @Argument(help: "The two traces (one file each).")
    var files: [String] = []

    @Option(help: "A file of the first trace (repeatable, for per-process files).")
    var left: [String] = []

    @Option(help: "A file of the second trace (repeatable).")
    var right: [String] = []

    func validate() throws {
        let sides = (left.isEmpty ? 0 : 1) + (right.isEmpty ? 0 : 1)
        guard (files.count == 2 && sides == 0) || (files.isEmpty && sides == 2) else {
            throw ValidationError("give two files, or --left and --right")
        }
    }

    func run() async throws {
        let a = try TraceInput.read(files.isEmpty ? left : [files[0]])
        let b = try TraceInput.read(files.isEmpty ? right : [files[1]])
        let differences = TraceDiff.compare(a.events, b.events)
        guard !differences.isEmpty else { return }
        print(TraceDiff.render(differences))
        throw ExitCode(1)
    }
}
