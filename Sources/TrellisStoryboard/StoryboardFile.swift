import TrellisJSON

/// One storyboard file, read and indexed: its document element checked to be a storyboard, its
/// scenes' controllers in XML order, and every element's Interface Builder id, so that
/// references (`destination`, `popoverAnchorView`) resolve — or are refused at their element.
struct StoryboardFile {
    /// Interface Builder's document type of a storyboard for iOS (a `.xib` has another).
    static let documentType = "com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"

    /// One scene member that is a controller (`sceneMemberID="viewController"`), with the element
    /// whose segues are its own (`segueScope`).
    struct Scene {
        var controller: StoryboardElement
        /// The scene's `<objects>` when the controller is the scene's only one (Xcode's shape: the
        /// segues of its gesture recognizers and other top-level objects are its own too), else
        /// the controller itself: a segue belongs to the controller that holds it, never to a
        /// sibling controller of the same scene (docs/decisions.md).
        var segueScope: StoryboardElement
    }

    let path: String
    let document: StoryboardElement
    let scenes: [Scene]
    /// Interface Builder id of a scene's controller → index into `scenes`.
    let sceneIndex: [String: Int]
    /// Every `id` attribute in the file → the element (exits and views included).
    let elements: [String: StoryboardElement]

    init(path: String, bytes: [UInt8]) throws(StoryboardError) {
        self.path = path
        let document = try StoryboardXML.parse(bytes, file: path)
        guard document.name == "document" else {
            throw StoryboardError(document, file: path, "not a storyboard: the document element is <\(document.name)>, not Interface Builder's <document>")
        }
        guard document["type"] == Self.documentType else {
            let type = document["type"].map { "\"\($0)\"" } ?? "none"
            throw StoryboardError(document, file: path, "not an iOS storyboard: type is \(type), expected \"\(Self.documentType)\"")
        }
        self.document = document
        var scenes: [Scene] = []
        var sceneIndex: [String: Int] = [:]
        for scene in document.child("scenes")?.children(named: "scene") ?? [] {
            guard let objects = scene.child("objects") else { continue }
            let controllers = objects.children.filter { $0["sceneMemberID"] == "viewController" }
            if controllers.count > 1 { try Self.checkSharedScene(objects, controllers: controllers.count, file: path) }
            for object in controllers {
                guard let id = object["id"], !id.isEmpty else {
                    throw StoryboardError(object, file: path, "a controller without an id")
                }
                guard sceneIndex[id] == nil else {
                    throw StoryboardError(object, file: path, "id \"\(id)\" names two controllers")
                }
                sceneIndex[id] = scenes.count
                scenes.append(Scene(controller: object, segueScope: controllers.count == 1 ? objects : object))
            }
        }
        self.scenes = scenes
        self.sceneIndex = sceneIndex
        // Other elements' ids are only looked up (exits, anchors): the first of an id counts.
        var elements: [String: StoryboardElement] = [:]
        // A damaged frame is refused where it is written, not read later as "no frame".
        var damagedFrame: (rect: StoryboardElement, fault: SceneGeometry.FrameFault)?
        document.walk { element, _ in
            if let id = element["id"], element.name != "segue", elements[id] == nil { elements[id] = element }
            if damagedFrame == nil, element.name == "rect", element["key"] == "frame", case let .failure(fault) = SceneGeometry.checkedFrame(element) {
                damagedFrame = (element, fault)
            }
            return true
        }
        if let damagedFrame {
            throw StoryboardError(damagedFrame.rect, file: path, damagedFrame.fault.description)
        }
        self.elements = elements
    }

    /// A scene with several controllers (Xcode writes one a scene) is read controller by
    /// controller; a segue on one of its other top-level objects belongs to none of them, and is
    /// refused where it is written.
    static func checkSharedScene(_ objects: StoryboardElement, controllers: Int, file: String) throws(StoryboardError) {
        var stray: StoryboardElement?
        for object in objects.children where object["sceneMemberID"] != "viewController" && stray == nil {
            if object.name == "segue" { stray = object }
            object.walk { element, _ in
                if stray == nil, element.name == "segue" { stray = element }
                return stray == nil
            }
        }
        if let stray {
            throw StoryboardError(stray, file: file, "a segue outside every controller of a scene holding \(controllers) controllers: which one performs it is unknown (Xcode writes one controller a scene; move the segue into its controller's <connections>)")
        }
    }

    /// Reads and indexes the file at `path`; `referencedFrom` is the element whose reference made
    /// it needed (a missing file is refused there).
    static func load(path: String, referencedFrom: (element: StoryboardElement, file: String)?) throws(StoryboardError) -> StoryboardFile {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: StoryboardXML.maximumSize, content: .text)
        } catch {
            if let referencedFrom {
                throw StoryboardError(referencedFrom.element, file: referencedFrom.file, "cannot read the storyboard it references, \(path): \(error.description)")
            }
            throw StoryboardError(file: path, line: 0, column: 0, element: "", message: error.description)
        }
        return try StoryboardFile(path: path, bytes: bytes)
    }

    /// Whether an element's name is a controller's as Interface Builder writes them
    /// (`viewController`, `tabBarController`, `hostingController`, a `viewControllerPlaceholder`):
    /// for saying what an element without `sceneMemberID="viewController"` lacks.
    static func isControllerElement(_ name: String) -> Bool {
        name.hasSuffix("Controller") || name == "viewControllerPlaceholder"
    }

    /// The `<device>` element's id and orientation, when the file has one.
    var device: (id: String, orientation: String?, element: StoryboardElement)? {
        guard let device = document.child("device"), let id = device["id"] else { return nil }
        return (id, device["orientation"], device)
    }
}
