import TrellisModel

/// Where a view of a scene lies in the scene's root view (the controller's `key="view"`
/// element), from the `<rect key="frame">` Interface Builder wrote for the preview device:
/// each frame is in its superview's coordinates, so the origins of the views between the root
/// view and the view add up (SPEC §11: container views and popover anchors).
enum SceneGeometry {
    /// A view found in a scene and its frame in root view coordinates.
    struct Placed {
        var element: StoryboardElement
        /// Nil when the view has no frame (Interface Builder writes none for some views).
        var frame: Rect?
        /// False when the element is not inside the root view (a bar button item, say).
        var insideRootView: Bool
        /// The elements from the controller down to the view's parent.
        var ancestors: [StoryboardElement]
    }

    /// The element with Interface Builder id `id` below `controller`, placed.
    static func find(_ id: String, in controller: StoryboardElement) -> Placed? {
        var found: Placed?
        controller.walk { element, ancestors in
            guard found == nil else { return false }
            if element["id"] == id {
                found = place(element, ancestors: ancestors)
                return false
            }
            return true
        }
        return found
    }

    /// `element`'s frame in root view coordinates, given its ancestors from the controller down.
    static func place(_ element: StoryboardElement, ancestors: [StoryboardElement]) -> Placed {
        // ancestors[0] is the controller; ancestors[1], when keyed "view", is the root view.
        guard ancestors.count >= 2, ancestors[1]["key"] == "view" else {
            return Placed(element: element, frame: frame(of: element), insideRootView: false, ancestors: ancestors)
        }
        guard var rect = frame(of: element) else {
            return Placed(element: element, frame: nil, insideRootView: true, ancestors: ancestors)
        }
        for ancestor in ancestors.dropFirst(2) {
            if let origin = frame(of: ancestor)?.origin {
                rect.origin = Point(x: rect.origin.x + origin.x, y: rect.origin.y + origin.y)
            }
        }
        return Placed(element: element, frame: rect, insideRootView: true, ancestors: ancestors)
    }

    /// The `<rect key="frame">` of `element`, when it has one with finite numbers in range.
    static func frame(of element: StoryboardElement) -> Rect? {
        guard let rect = element.child("rect", key: "frame") else { return nil }
        let values = ["x", "y", "width", "height"].map { rect[$0].flatMap(Double.init) }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = values.compactMap { $0 }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= 1_000_000 }), numbers[2] >= 0, numbers[3] >= 0 else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// The size of the scene's root view on the preview device, when written.
    static func rootViewSize(of controller: StoryboardElement) -> Size? {
        controller.children.first { $0["key"] == "view" }.flatMap(frame(of:))?.size
    }
}
