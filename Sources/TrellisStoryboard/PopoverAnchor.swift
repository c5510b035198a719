import TrellisModel

extension SegueMapping {
    /// The side of the screen a bar button item's stand-in rect is put at.
    enum BarSide {
        case left, right, toolbar
    }

    /// A 44-point square (the navigation bar's height, a bar button item's hit area) at the top
    /// left or right of the source scene's root view, 8 points in from its edge, or at the bottom
    /// left for a toolbar item: the documented stand-in for a bar button item's place, which
    /// UIKit computes at run time from the bar's layout (docs/decisions.md).
    static func standIn(_ side: BarSide, in size: Size) -> Rect {
        switch side {
        case .left: return Rect(x: 8, y: 0, width: 44, height: 44)
        case .right: return Rect(x: max(0, size.width - 52), y: 0, width: 44, height: 44)
        case .toolbar: return Rect(x: 8, y: max(0, size.height - 44), width: 44, height: 44)
        }
    }

    /// The frame, in root view coordinates, of the bar view (`<toolbar>` or `<navigationBar>`)
    /// laid out in the scene's root view that holds a bar button item, when there is one: an
    /// iPad scene's own toolbar at the bottom of its view, say (CIFunHouse, BlankSnapshot).
    static func barView(holding item: SceneGeometry.Placed) -> Rect? {
        guard item.insideRootView,
              let index = item.ancestors.lastIndex(where: { $0.name == "toolbar" || $0.name == "navigationBar" }) else { return nil }
        let bar = SceneGeometry.place(item.ancestors[index], ancestors: Array(item.ancestors[..<index]))
        return bar.frame
    }

    /// The stand-in inside a bar view laid out in the scene: 44 points square (or the bar's
    /// height if less), 8 points in from the bar's left end, or from its right end for a right
    /// item of a navigation bar; a toolbar's items start at its left.
    static func standIn(_ side: BarSide, inBar bar: Rect) -> Rect {
        let size = min(44, bar.size.height)
        switch side {
        case .left, .toolbar: return Rect(x: bar.origin.x + 8, y: bar.origin.y, width: size, height: size)
        case .right: return Rect(x: bar.origin.x + max(0, bar.size.width - 52), y: bar.origin.y, width: size, height: size)
        }
    }

    /// Which bar a bar button item is on, from the keys Interface Builder writes.
    static func side(of item: SceneGeometry.Placed) -> BarSide {
        let keys = ([item.element] + item.ancestors).compactMap { $0["key"] }
        if item.ancestors.contains(where: { $0.name == "toolbarItems" || $0.name == "toolbar" }) || keys.contains("toolbarItems") { return .toolbar }
        if keys.contains("leftBarButtonItem") || keys.contains("leftBarButtonItems") { return .left }
        return .right
    }

    /// A popover segue's anchor (SPEC §11): `popoverAnchorView`'s frame in the source scene's
    /// root view coordinates, or for `popoverAnchorBarButtonItem` (or an anchor outside the root
    /// view) a stand-in rect in the bar, with a notice.
    mutating func anchor(_ segue: StoryboardElement, place: StoryboardLibrary.Place, from: String) throws(StoryboardError) -> (view: String, rect: Rect) {
        let file = library.files[place.file].path
        let controller = library.controller(place)
        let sceneSize = SceneGeometry.rootViewSize(of: controller) ?? Size(0, 0)
        let written = segue["popoverAnchorView"].map { ("popoverAnchorView", $0) }
            ?? segue["popoverAnchorBarButtonItem"].map { ("popoverAnchorBarButtonItem", $0) }
        guard let (attribute, id) = written else {
            throw StoryboardError(segue, file: file, "a popover segue needs a popoverAnchorView or popoverAnchorBarButtonItem (Interface Builder requires an anchor)")
        }
        guard let placed = SceneGeometry.find(id, in: controller) else {
            throw StoryboardError(segue, file: file, "\(attribute) \"\(id)\" is no element of the scene of \(from)")
        }
        if attribute == "popoverAnchorView", placed.insideRootView {
            guard let frame = placed.frame else {
                notices.add("popover anchor \(id) in \(from) has no frame: the popover points from \(from)'s view's origin")
                return (from, Rect(x: 0, y: 0, width: 0, height: 0))
            }
            return (from, frame)
        }
        let rect = Self.barView(holding: placed).map { Self.standIn(Self.side(of: placed), inBar: $0) }
            ?? Self.standIn(Self.side(of: placed), in: sceneSize)
        notices.add("popover segue from \(from) anchors on <\(placed.element.name)> \(id), whose place UIKit computes at run time: stand-in rect \(Self.text(rect)) in \(from)'s view")
        return (from, rect)
    }

    static func text(_ rect: Rect) -> String {
        "[" + [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map { CanonicalNumber.format($0) }.joined(separator: ", ") + "]"
    }
}
