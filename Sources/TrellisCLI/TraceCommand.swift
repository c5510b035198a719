import ArgumentParser
import Foundation
import TrellisDistributed
import TrellisJSON
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// `trellis trace`: inspect recorded runs (SPEC §6).
struct TraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Inspect traces recorded with `\(ProgramName.current) run --trace FILE` (JSON Lines or the compact capture).",
        discussion: """
            Every command reads both forms, told apart by their first bytes, and files of both \
            forms together. Several files (one per process of a distributed run) are merged by \
            causality; they must be the files of one run, each named once. A corrupt JSON line is \
            reported with its file and line number on standard error and the rest is still read; \
            damage in a compact capture is reported with its byte offset, and what came before it \
            is read. show, follow, diff and export print what they read and exit 2; merge and \
            convert write nothing and exit 2. A file with no event in it (an empty one) is exit 2. \
            A filter naming a controller, step, transition or node the trace lacks is exit 2. \
            Files may be pipes (<(...), /dev/stdin).

            EXAMPLES:
              \(ProgramName.current) run Examples/suppression-middle.json --trace run.jsonl
              \(ProgramName.current) trace show run.jsonl --tree --step 1 --subtree A
              \(ProgramName.current) trace follow run.jsonl main#14
              \(ProgramName.current) trace diff run.jsonl <(\(ProgramName.current) run other.json --format jsonl)
              \(ProgramName.current) trace export run.jsonl --format perfetto -o run.perfetto.json
              \(ProgramName.current) trace convert run.trellis run.jsonl
            """,
        subcommands: [
            TraceShowCommand.self, TraceFollowCommand.self, TraceMergeCommand.self, TraceDiffCommand.self, TraceExportCommand.self,
            TraceConvertCommand.self,
        ]
    )
}

/// Reading trace files for the subcommands: unreadable files (missing, holding no event, files
/// that cannot be of one run) exit 2 at once; damaged lines are errors naming the file and line
/// (or byte offset), and the command exits 2 too — after printing what it could read when it
/// prints (`show`, `follow`, `export`, `diff`), writing nothing when it writes a capture (`merge`,
/// `convert`: a copy would lose them without a word).
enum TraceInput {
    /// What a command does with a file that has lines it cannot read.
    enum Damage {
        /// Goes on with the rest, and exits 2 at its end (`finish`).
        case printWhatIsRead
        /// Exits 2 before doing anything.
        case refuse
    }

    static func read(_ paths: [String], damage: Damage) throws -> TraceFile {
        try read(damage) { () throws(TraceFileReader.UnreadableFile) in try TraceFileReader.read(paths: paths) }
    }

    /// One file as it is, in file order with its runs (`convert`), not merged.
    static func read(path: String, damage: Damage) throws -> TraceFile {
        try read(damage) { () throws(TraceFileReader.UnreadableFile) in try TraceFileReader.read(path: path) }
    }

    private static func read(_ damage: Damage, _ reading: () throws(TraceFileReader.UnreadableFile) -> TraceFile) throws -> TraceFile {
        let file: TraceFile
        do {
            file = try reading()
        } catch {
            StandardError.write("error: \(message(error))")
            throw ExitCode(2)
        }
        for problem in file.problems {
            switch damage {
            case .printWhatIsRead: StandardError.write("error: \(problem)" + (problem.byteOffset == nil ? " (line skipped)" : ""))
            case .refuse: StandardError.write("error: \(problem)")
            }
        }
        for notice in file.notices { StandardError.write("notice: \(notice)") }
        switch damage {
        case .printWhatIsRead: break
        case .refuse: if !file.problems.isEmpty { throw ExitCode(2) }
        }
        return file
    }

    /// An unreadable file's error, saying what a trace is when the file held no event.
    static func message(_ error: TraceFileReader.UnreadableFile) -> String {
        guard error.holdsNoEvent else { return error.description }
        return error.description
            + "; a trace is JSON Lines (one event a line) or a compact capture, as `\(ProgramName.current) run --trace` writes it (a scenario is run with `\(ProgramName.current) run`)"
    }

    /// Ends a command that printed what it could read: exit 2 when a file had damaged lines.
    static func finish(_ files: TraceFile...) throws {
        if files.contains(where: { !$0.problems.isEmpty }) { throw ExitCode(2) }
    }

    /// Exits 2 when `filter` names a controller, step, transition or node `events` do not have.
    static func refuseAbsent(_ filter: TraceFilter, in events: [TraceEvent]) throws {
        if let problem = filter.absenceProblem(in: events) {
            StandardError.write("error: \(problem)")
            throw ExitCode(2)
        }
    }

    /// The trace as a causal tree; a damaged trace whose causes form a cycle (an event its own
    /// cause included) exits 2 naming an event of the cycle (its events would otherwise be under
    /// no root, printed as nothing), and one where two events have one id exits 2 naming it.
    static func tree(_ events: [TraceEvent]) throws -> CausalTree {
        let tree = CausalTree(events)
        if let problem = damageProblem(tree) {
            StandardError.write("error: \(problem)")
            throw ExitCode(2)
        }
        if let notice = absentCausesNotice(tree) { StandardError.write(notice) }
        return tree
    }

    /// Events whose cause the trace lacks start a causal chain of their own, and it is said: one
    /// node's file holds such events, a run that lost a node lacks that node's events, and an
    /// edited trace may name an event that never was.
    static func absentCausesNotice(_ tree: CausalTree) -> String? {
        guard let first = tree.absentCauses.first, let cause = tree.events[first].cause else { return nil }
        let count = tree.absentCauses.count
        return "notice: \(count == 1 ? "1 event names a cause" : "\(count) events name causes") the trace does not have "
            + "(the first: \(tree.events[first].id), caused by \(cause)); \(count == 1 ? "it starts" : "each starts") a causal chain of its own"
    }

    /// Why a damaged trace is refused: two events with one id, naming it, or causes that form a
    /// cycle, naming an event of the cycle; nil for a sound trace. Every command that reads a
    /// trace refuses such a one (`diff` and `convert` included: damage is never a difference or
    /// something to copy).
    static func damageProblem(_ tree: CausalTree) -> String? {
        if let repeated = tree.repeated {
            return "the trace is damaged: two events are \(tree.events[repeated].id), a node and sequence number that name one event of a run "
                + "(a line written twice, or the files of two runs joined into one)"
        }
        return tree.cycle.map { "the trace is damaged: the causes of \(tree.events[$0].id) lead back to it (a cycle of causes)" }
    }

    /// Exits 2 when `file` is damaged (`damageProblem`), each of its runs checked on its own: a
    /// file read as it is (`convert`) may hold several, whose ids are their own.
    static func refuseDamage(_ file: TraceFile) throws {
        if let problem = damageProblem(of: file) {
            StandardError.write("error: \(problem)")
            throw ExitCode(2)
        }
    }

    /// `damageProblem` of the first damaged run of `file`, each run checked on its own.
    static func damageProblem(of file: TraceFile) -> String? {
        let starts = file.runSpans.map(\.position).filter { $0 > 0 }
        for (start, end) in zip([0] + starts, starts + [file.events.count]) {
            if let problem = damageProblem(CausalTree(Array(file.events[start..<end]))) { return problem }
        }
        return nil
    }
}

/// Writing capture files for the commands: a file that cannot be written exits 2.
enum TraceOutput {
    static func write(_ bytes: [UInt8], to path: String) throws {
        if let problem = problem(writing: bytes, to: path) {
            StandardError.write("error: \(problem)")
            throw ExitCode(2)
        }
    }

    /// Writes the file, and says what went wrong — with the system's reason — instead of
    /// telling it (a JSON report tells it).
    static func problem(writing bytes: [UInt8], to path: String) -> String? {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return nil
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
            return "cannot write the trace file \(path): \(reason)"
        }
    }

    /// What stops a trace file from being written at `path`, said before a run that would write
    /// it (`run --trace`): its folder missing or not writable, or the path a folder. Nil when
    /// nothing is known to; a write can still fail later (a full disk), and says so then.
    static func problem(preparing path: String, option: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "\(option) \(path) is a folder, not a file"
        }
        let folder = (path as NSString).deletingLastPathComponent
        let place = folder.isEmpty ? "." : folder
        guard FileManager.default.fileExists(atPath: place, isDirectory: &isFolder), isFolder.boolValue else {
            return "\(option) \(path): the folder \(place) does not exist"
        }
        guard FileManager.default.isWritableFile(atPath: place) else {
            return "\(option) \(path): the folder \(place) is not writable"
        }
        return nil
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

    // `.unconditional`: `--step -1` is the option's value, which the range check names.
    @Option(parsing: .unconditional, help: "Only this step, or a range N-M (0 is the initial layout).")
    var step: String?

    @Option(help: "Only this transition id (repeatable).")
    var transition: [Int] = []

    @Option(help: "Only events recorded on this node (repeatable).")
    var node: [String] = []

    func filter() throws -> TraceFilter {
        if let problem = TraceFilter.unknownKindProblem(kind) { throw ValidationError(problem) }
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

            While a custom presentation is adapted (SPEC §3.7), its presentation controller's \
            sizeForChild and frameOfPresentedViewInContainerView lines are the adapted style's \
            answers, not its code's: follow and show --tree, --ids or --frames print \
            "(answered by the adapted style S, not the custom presentation's code)" after them \
            (plain show prints the canonical lines, as \(ProgramName.current) run does).

            EXAMPLES:
              \(ProgramName.current) trace show run.jsonl
              \(ProgramName.current) trace show run.jsonl --tree --step 1 --subtree A
              \(ProgramName.current) trace show run.trellis --ids --frames --kind layout
              \(ProgramName.current) trace show node-a.jsonl node-b.jsonl --kind suppressed --step 2-3
            """)

    @Argument(help: "Capture files (JSON Lines or compact).", completion: .file())
    var files: [String]

    @Flag(help: "Indent each event under the event that caused it.")
    var tree = false

    @Flag(help: "Print each event's id (main#42) before its line, to give to `\(ProgramName.current) trace follow`.")
    var ids = false

    @Flag(help: "After each view controller's layout callback, the frame its container gave it (R60): x,y WxH in the container's coordinates.")
    var frames = false

    @OptionGroup var filterOptions: TraceFilterOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one trace file") }
        _ = try filterOptions.filter()
    }

    /// The event's canonical line, with its frame when asked for and it has one. The inspection
    /// views (--tree, --ids, --frames) also say whose answer a query is when an adapted style
    /// answered for a custom presentation (`AdaptedAnswers`); the plain listing stays the
    /// canonical lines, which equal `trellis run`'s output.
    private func text(_ event: TraceEvent, _ adapted: AdaptedAnswers?) -> String {
        let canonical = ids ? "\(event.id)  " + event.canonicalLine : event.canonicalLine
        let line = adapted?.annotated(canonical, event) ?? canonical
        guard frames, let frame = event.message.frame else { return line }
        return line + "  frame " + frame.description
    }

    func run() async throws {
        let file = try TraceInput.read(files, damage: .printWhatIsRead)
        let filter = try filterOptions.filter()
        let causal = try TraceInput.tree(file.events)
        try TraceInput.refuseAbsent(filter, in: causal.events)
        let kept = filter.keep(in: causal)
        let adapted = tree || ids || frames ? AdaptedAnswers(causal.events) : nil
        let text = { (event: TraceEvent) in self.text(event, adapted) }
        let stepsWithEvents = Set(kept.map { causal.events[$0].step })
        let header = { (step: Int) in filter.keepsHeader(ofStep: step, stepsWithKeptEvents: stepsWithEvents) }
        var output = OutputBuffer()
        if tree {
            let lines = causal.indentedLines(including: { position in
                if case .step = causal.events[position].message { return header(causal.events[position].step) }
                return kept.contains(position)
            }, text: text)
            for line in lines { output.line(line) }
        } else {
            for (position, event) in causal.events.enumerated() {
                if case .step = event.message {
                    if header(event.step) { output.line(text(event)) }
                } else if kept.contains(position) {
                    output.line(text(event))
                }
            }
        }
        output.flush()
        try TraceInput.finish(file)
    }
}

struct TraceFollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Show one event's causes (up to its step) and everything it caused.",
        discussion: """
            EVENT is node#sequence (main#12), or a sequence number when the trace has one node.

            EXAMPLES:
              \(ProgramName.current) trace follow run.jsonl main#12
              \(ProgramName.current) trace follow run.jsonl 12
            """)

    @Argument(help: "Capture files, then the event.", completion: .file())
    var arguments: [String]

    func validate() throws {
        guard arguments.count >= 2 else { throw ValidationError("name the trace file(s) and then the event") }
    }

    func run() async throws {
        let file = try TraceInput.read(Array(arguments.dropLast()), damage: .printWhatIsRead)
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
        // Whose answer a query line is, when an adapted style answered for a custom presentation.
        let adapted = AdaptedAnswers(causal.events)
        let text = { (index: Int) in adapted.annotated("\(causal.events[index].id)  " + causal.events[index].canonicalLine, causal.events[index]) }
        var output = OutputBuffer()
        output.line("causes:")
        for (depth, cause) in causal.causes(of: position).enumerated() {
            output.line(CausalTree.indent(depth + 1) + text(cause))
        }
        output.line("event:")
        output.line("  " + text(position))
        output.line("effects:")
        for effect in causal.effects(of: position) {
            output.line(CausalTree.indent(effect.depth) + text(effect.position))
        }
        output.flush()
        try TraceInput.finish(file)
    }
}

struct TraceMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge per-process capture files into one, ordered by causality.",
        discussion: """
            EXAMPLES:
              \(ProgramName.current) trace merge traces/main.jsonl traces/b.jsonl -o merged.jsonl
            """)

    @Argument(help: "Capture files to merge.", completion: .file())
    var files: [String]

    @Option(name: .shortAndLong, help: "Write the merged trace here instead of standard output (JSON Lines for a name ending in .jsonl, else compact).", completion: .file())
    var output: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one trace file") }
    }

    func run() async throws {
        let file = try TraceInput.read(files, damage: .refuse)
        try TraceInput.refuseDamage(file)
        let runID = file.runIDs.first ?? "merged"
        let format = output.map(CaptureFileFormat.forPath) ?? .jsonLines
        let bytes = CaptureFileEncoding.bytes(of: file.events, runs: [], defaultRunID: runID, format: format)
        if let output {
            try TraceOutput.write(bytes, to: output)
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

struct TraceDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces step by step, aligned by causal order, not by time.",
        discussion: """
            Exit status 0 when they are the same, 1 when they differ, 2 when a file cannot be \
            read. Use --left/--right to give several files per side. --format json prints one \
            JSON document instead (docs/json-output.md); lines that cannot be read are then \
            among its warnings, not on standard error.

            EXAMPLES:
              \(ProgramName.current) trace diff before.jsonl after.jsonl
              \(ProgramName.current) trace diff run.jsonl <(\(ProgramName.current) run other.json --format jsonl)
              \(ProgramName.current) trace diff --left main.jsonl --left b.jsonl --right inproc.jsonl
              \(ProgramName.current) trace diff before.jsonl after.jsonl --format json
            """)

    @Argument(help: "The two traces (one file each).", completion: .file())
    var files: [String] = []

    @Option(help: "A file of the first trace (repeatable, for per-process files).", completion: .file())
    var left: [String] = []

    @Option(help: "A file of the second trace (repeatable).", completion: .file())
    var right: [String] = []

    @Option(help: "What to print: text, or json (one document: each differing step and its lines, each unreadable line; docs/json-output.md).")
    var format: ReportFormat = .text

    func validate() throws {
        let sides = (left.isEmpty ? 0 : 1) + (right.isEmpty ? 0 : 1)
        guard (files.count == 2 && sides == 0) || (files.isEmpty && sides == 2) else {
            throw ValidationError("give two files, or --left and --right")
        }
    }

    private var leftFiles: [String] { files.isEmpty ? left : [files[0]] }
    private var rightFiles: [String] { files.isEmpty ? right : [files[1]] }

    func run() async throws {
        guard format == .json else {
            let a = try TraceInput.read(leftFiles, damage: .printWhatIsRead)
            let b = try TraceInput.read(rightFiles, damage: .printWhatIsRead)
            try TraceInput.refuseDamage(a)
            try TraceInput.refuseDamage(b)
            let differences = TraceDiff.compare(a.events, b.events)
            if !differences.isEmpty { print(TraceDiff.render(differences)) }
            try TraceInput.finish(a, b)
            if !differences.isEmpty { throw ExitCode(1) }
            return
        }
        var report = JSONReport(command: "trace diff")
        report.set("left", JSONFields.strings(leftFiles))
        report.set("right", JSONFields.strings(rightFiles))
        let status = Self.compare(leftFiles, rightFiles, into: &report)
        report.emit(status: status)
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads both sides and puts the differences, the lines that could not be read and any
    /// unreadable file into `report` (docs/json-output.md §trace diff); returns the exit status.
    static func compare(_ leftFiles: [String], _ rightFiles: [String], into report: inout JSONReport) -> Int32 {
        var sides: [TraceFile] = []
        var errors: [JSONValue] = []
        for paths in [leftFiles, rightFiles] {
            do {
                let side = try TraceFileReader.read(paths: paths)
                if let problem = TraceInput.damageProblem(of: side) {
                    errors.append(JSONFields.error(file: paths.count == 1 ? paths[0] : nil, message: problem))
                }
                sides.append(side)
            } catch {
                errors.append(JSONFields.error(file: paths.count == 1 ? paths[0] : nil, message: TraceInput.message(error)))
            }
        }
        let warnings = sides.flatMap(\.problems).map { problem in
            JSONFields.object([
                ("file", .string(problem.file)), ("line", JSONFields.position(problem.line)),
                ("byteOffset", problem.byteOffset.map(JSONFields.int) ?? .null), ("message", .string(problem.message)),
            ])
        }
        var differences: [TraceDiff.StepDifference] = []
        if sides.count == 2, errors.isEmpty { differences = TraceDiff.compare(sides[0].events, sides[1].events) }
        report.set("same", errors.isEmpty ? .bool(differences.isEmpty) : .null)
        report.set("differences", JSONFields.array(differences.map { difference in
            JSONFields.object([
                ("step", JSONFields.int(difference.step)), ("header", .string(difference.header)),
                ("minimal", .bool(difference.minimal)), ("lines", JSONFields.diff(difference.operations, context: 2)),
            ])
        }))
        report.set("warnings", JSONFields.array(warnings))
        report.set("errors", JSONFields.array(errors))
        // A damaged line is exit 2, as in prose; the report still has the differences of the rest.
        return !errors.isEmpty || !warnings.isEmpty ? 2 : differences.isEmpty ? 0 : 1
    }
}

struct TraceConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a capture file between JSON Lines and the compact capture.",
        discussion: """
            IN may be of either form (told apart by its first bytes); OUT is written as JSON Lines \
            when its name ends in .jsonl, as the compact capture otherwise, unless --to says. \
            Nothing is lost: converting a file one way and back gives it byte for byte.

            EXAMPLES:
              \(ProgramName.current) trace convert run.trellis run.jsonl
              \(ProgramName.current) trace convert run.jsonl run.trellis
              \(ProgramName.current) trace convert run.jsonl copy --to compact
            """)

    @Argument(help: "The capture file to read.", completion: .file())
    var input: String

    @Argument(help: "The file to write.", completion: .file())
    var output: String

    @Option(help: "The form to write: jsonl or compact (by default, from OUT's name).")
    var to: ConvertFormat?

    enum ConvertFormat: String, ExpressibleByArgument, CaseIterable {
        case jsonl, compact
    }

    func run() async throws {
        // A conversion that would lose what could not be read is refused, and so is a trace
        // whose causes form a cycle (damage that every other command refuses too).
        let file = try TraceInput.read(path: input, damage: .refuse)
        try TraceInput.refuseDamage(file)
        let format: CaptureFileFormat
        switch to {
        case .jsonl: format = .jsonLines
        case .compact: format = .compact
        case nil: format = CaptureFileFormat.forPath(output)
        }
        try TraceOutput.write(CaptureFileEncoding.bytes(of: file, format: format), to: output)
    }
}
