import ArgumentParser
import TrellisDistributed
import TrellisModel
import TrellisRuntime
import TrellisStoryboard

/// `--orientation portrait|landscape` of `trellis import`.
extension DeviceOrientation: ExpressibleByArgument {}

/// `trellis import FILE.storyboard` (SPEC §11): the storyboard as a scenario that `trellis run`
/// accepts as it is, or with `--segues` its segues; notices on standard error only.
struct ImportCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Print an Interface Builder storyboard as a scenario (JSON).",
        discussion: """
            Prints the scenario on standard output: window, root, controllers, a segues map and \
            no steps; add steps and run it, or name the storyboard from a scenario \
            ("storyboard": "Main.storyboard"). Notices (custom classes without a registered \
            behaviour, container views placed as on the preview device, stand-in anchor rects, \
            unwind targets found at run time) go to standard error. Exits 2 for a file that is \
            not a storyboard or refers to what is not there, with FILE:LINE:COLUMN, the element \
            and what is wrong.

            EXAMPLES:
              \(ProgramName.current) import Main.storyboard > app.json
              \(ProgramName.current) import Main.storyboard --device ipad12_9 --orientation landscape
              \(ProgramName.current) import Main.storyboard --segues
              \(ProgramName.current) import Settings.storyboard --root SettingsRoot --window 390x844
            """
    )

    @Argument(help: "The storyboard file (storyboards it references are read from its folder).")
    var storyboard: String

    @Option(help: "The window is this Interface Builder device's screen (retina6_1, ipad11, …) instead of the file's.")
    var device: String?

    // `.unconditional`: a value that starts with "-" (`-5x100`) is the option's, which then names
    // what is wrong with it, not a missing value.
    @Option(parsing: .unconditional, help: "The window's size in points, WxH, instead of a device's (its traits are then the scenario's defaults).")
    var window: String?

    @Option(help: "The device's orientation: portrait or landscape (default: the file's).")
    var orientation: DeviceOrientation?

    @Option(help: "The root controller's id, for a storyboard without an initial view controller.")
    var root: String?

    @Flag(help: "List the segues (ID KIND FROM -> DESTINATION) instead of printing the scenario.")
    var segues = false

    func validate() throws {
        if device != nil, window != nil { throw ValidationError("--device and --window both give the window: give one") }
        if window != nil, orientation != nil { throw ValidationError("--orientation turns a device: with --window, give the size as it is held") }
        if let window, Self.size(window) == nil { throw ValidationError("--window must be WxH in points (for example 390x844), got \"\(window)\"") }
    }

    /// `WxH` with both numbers positive and at most a million.
    static func size(_ text: String) -> Size? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              (1...1_000_000).contains(width), (1...1_000_000).contains(height) else { return nil }
        return Size(width, height)
    }

    func run(registry: BehaviorRegistry) async throws {
        var options = StoryboardImportOptions(orientation: orientation, behaviors: Set(registry.names(of: .viewController)))
        if let device { options.window = .device(device) }
        if let window, let size = Self.size(window) { options.window = .size(size) }
        if let root { options.root = .named(root) }
        if segues {
            // Listing segues needs no window or root: a file without either still lists them.
            if device == nil, window == nil { options.window = .suppliedByScenario }
            if root == nil { options.root = .suppliedByScenario }
        }
        let imported: StoryboardImport
        do {
            imported = try StoryboardImport.read(path: storyboard, options: options)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        for notice in imported.notices { StandardError.write("notice: \(notice)") }
        if !segues, let advice = imported.profileAdvice { StandardError.write("notice: \(advice)") }
        var output = OutputBuffer()
        if segues {
            for line in imported.segueLines { output.line(line) }
        } else {
            output.line(imported.document.text())
        }
        output.flush()
    }
}
