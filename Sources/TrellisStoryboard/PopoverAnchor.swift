import TrellisModel

extension SegueMapping {
    /// The side of the screen a bar button item's stand-in rect is put at.
    enum BarSide {
        case left, right, toolbar
    }

    /// A 44-point square (the navigation bar's height, a bar button item's hit area) at the top
    /// left or right of the source scene's root view, 8 points in from its edge, or at the bottom
    /// left for a toolbar item: the documented stand-in for a bar button item's place, which
    /// UIKit computes at run time from the bar's layout (docs/decisions.md). Measured from that
    /// corner, so that it stays at the bar's end when the view resizes (a rotation).
    static func standIn(_ side: BarSide) -> (rect: Rect, corner: PopoverSourceCorner) {
        let square = Rect(x: 8, y: 0, width: 44, height: 44)
        switch side {
        case .left: return (square, .topLeft)
        case .right: return (square, .topRight)
        case .toolbar: return (square, .bottomLeft)
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

    /// The stand-in inside a bar view laid out in the scene (of `sceneSize`): 44 points square
    /// (or the bar's height if less), 8 points in from the bar's left end, or from its right end
    /// for a right item of a navigation bar; a toolbar's items start at its left. Measured from
    /// the corner of the view nearest the bar's end (a bar in the lower half of the view, from
    /// a bottom one), so that it follows the bar when the view resizes.
    static func standIn(_ side: BarSide, inBar bar: Rect, sceneSize: Size) -> (rect: Rect, corner: PopoverSourceCorner) {
        let size = min(44, bar.size.height)
        let right = side == .right
        let bottom = bar.origin.y + bar.size.height / 2 > sceneSize.height / 2
        let inScene = Rect(x: right ? bar.origin.x + max(0, bar.size.width - 52) : bar.origin.x + 8, y: bar.origin.y, width: size, height: size)
        let corner: PopoverSourceCorner = switch (right, bottom) {
        case (false, false): .topLeft
        case (true, false): .topRight
        case (false, true): .bottomLeft
        case (true, true): .bottomRight
        }
        // Measuring from a corner is its own inverse: the rect from that corner is where the
        // scene has it, seen from the corner.
        return (corner.rect(inScene, inViewOf: sceneSize), corner)
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
    mutating func anchor(_ segue: StoryboardElement, place: StoryboardLibrary.Place, from: String) throws(StoryboardError) -> MappedSegue.Anchor {
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
                return MappedSegue.Anchor(view: ControllerID(from), rect: Rect(x: 0, y: 0, width: 0, height: 0))
            }
            return MappedSegue.Anchor(view: ControllerID(from), rect: frame)
        }
        let side = Self.side(of: placed)
        let (rect, corner) = Self.barView(holding: placed).map { Self.standIn(side, inBar: $0, sceneSize: sceneSize) } ?? Self.standIn(side)
        let measured = corner == .topLeft ? "" : " measured from its \(Self.words(corner)) corner (so it stays there when the view resizes)"
        notices.add("popover segue from \(from) anchors on <\(placed.element.name)> \(id), whose place UIKit computes at run time: "
            + "stand-in rect \(Self.text(rect)) in \(from)'s view\(measured)")
        return MappedSegue.Anchor(view: ControllerID(from), rect: rect, corner: corner)
    }

    /// `topRight` as a notice says it.
    static func words(_ corner: PopoverSourceCorner) -> String {
        switch corner {
        case .topLeft: "top left"
        case .topRight: "top right"
        case .bottomLeft: "bottom left"
        case .bottomRight: "bottom right"
        }
    }

    static func text(_ rect: Rect) -> String {
        "[" + [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map { CanonicalNumber.format($0) }.joined(separator: ", ") + "]"
    }
}
