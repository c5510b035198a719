import TrellisJSON
import TrellisModel

/// What an import is told besides the file (SPEC §11: `trellis import`'s flags, or what a
/// scenario's own fields supply when it names a `"storyboard"`).
public struct StoryboardImportOptions: Sendable {
    /// Where the window comes from.
    public enum Window: Sendable, Equatable {
        /// The file's `<device>` (`--orientation` may turn it).
        case fromFile
        /// `--device ID`.
        case device(String)
        /// `--window WxH`: the size only; traits are the scenario's defaults.
        case size(Size)
        /// The scenario names its own window: the document has none.
        case suppliedByScenario
    }

    /// Which controller is the root.
    public enum Root: Sendable, Equatable {
        /// The document's `initialViewController`.
        case initial
        /// `--root ID`: a controller id of the import.
        case named(String)
        /// The scenario names its own root: the document has none.
        case suppliedByScenario
    }

    /// Where the window comes from.
    public var window: Window = .fromFile
    /// `--orientation`: nil keeps the file's.
    public var orientation: DeviceOrientation?
    /// Who gives the window when the file's device cannot: the advice a message gives.
    public enum WindowAdvice: Sendable, Equatable {
        /// `trellis import`: its `--device ID` or `--window WxH`.
        case importOptions
        /// A scenario naming a `"storyboard"`: its own `"window"` field.
        case scenarioField
    }

    /// Which controller is the root.
    public var root: Root = .initial
    /// What a message about the window advises.
    public var windowAdvice: WindowAdvice = .importOptions
    /// The view-controller behaviours the runner registers (SPEC §4.1): a `customClass` of one of
    /// these names gets it as its `"behavior"`.
    public var behaviors: Set<String> = []

    /// The options of a plain `trellis import FILE`, or as given.
    public init(window: Window = .fromFile, orientation: DeviceOrientation? = nil, root: Root = .initial, behaviors: Set<String> = []) {
        self.window = window
        self.orientation = orientation
        self.root = root
        self.behaviors = behaviors
    }
}

/// A storyboard read as a scenario (SPEC §11): the JSON document `trellis import` prints and a
/// scenario's `"storyboard"` field starts from, its segues, and the notices for standard error.
public struct StoryboardImport: Sendable {
    /// The scenario document: what `trellis import` prints.
    public var document: ScenarioJSON
    /// The performable segues, as in the document's `segues` map, in file and XML order.
    public var segues: [MappedSegue]
    /// What the document stands in for, for standard error.
    public var notices: [String]
    /// A notice for a scenario that names no `"profile"` (`trellis import` prints none): the
    /// storyboard was saved by an Xcode whose apps present with iOS 13's defaults, and it
    /// presents. Nil otherwise.
    public var profileAdvice: String?

    /// Reads the storyboard at `path` (and the storyboards it references, from its folder).
    public static func read(path: String, options: StoryboardImportOptions = StoryboardImportOptions()) throws(StoryboardError) -> StoryboardImport {
        try read(StoryboardFile.load(path: path, referencedFrom: nil), options: options)
    }

    /// Reads a storyboard from its bytes; `file` names it in errors and is where references are
    /// looked for.
    public static func read(bytes: [UInt8], file: String, options: StoryboardImportOptions = StoryboardImportOptions()) throws(StoryboardError) -> StoryboardImport {
        try read(StoryboardFile(path: file, bytes: bytes), options: options)
    }

    static func read(_ main: StoryboardFile, options: StoryboardImportOptions) throws(StoryboardError) -> StoryboardImport {
        let library = try StoryboardLibrary(main: main)
        var mapping = ControllerMapping(library: library, notices: StoryboardNotices())
        var controllers: [MappedController] = []
        for (fileNumber, file) in library.files.enumerated() {
            for (sceneNumber, scene) in file.scenes.enumerated() where scene.controller.name != "viewControllerPlaceholder" {
                controllers.append(try mapping.map(StoryboardLibrary.Place(file: fileNumber, scene: sceneNumber)))
            }
        }
        var structure = StoryboardStructure(library: library, controllers: controllers, notices: mapping.notices)
        controllers = try structure.resolved()
        var segueMapping = SegueMapping(library: library, notices: structure.notices)
        let segues = try segueMapping.map(controllers)
        var assembly = DocumentAssembly(library: library, controllers: controllers, options: options, notices: segueMapping.notices)
        let document = try assembly.document(segues: segues)
        return StoryboardImport(document: document, segues: segues, notices: assembly.notices.lines,
                                profileAdvice: PresentationEra.advice(main, controllers: controllers, segues: segues))
    }

    /// `--segues`: one line per segue, `ID KIND FROM -> DESTINATION` (`(run time)` for an unwind).
    public var segueLines: [String] {
        segues.map { "\($0.id) \($0.kind) \($0.from) -> \($0.destination ?? "(run time)")" }
    }
}
