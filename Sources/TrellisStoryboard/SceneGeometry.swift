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

    /// The `<rect key="frame">` of `element`, when it has one (a file's frames are checked as it
    /// is read, `checkedFrame`).
    static func frame(of element: StoryboardElement) -> Rect? {
        guard let rect = element.child("rect", key: "frame"), case let .success(frame) = checkedFrame(rect) else { return nil }
        return frame
    }

    /// The largest coordinate or length a frame may have: no device is near it, and it keeps
    /// sums of nested origins exact.
    static let largestCoordinate = 1_000_000.0

    /// Why a frame is damaged, worded to follow the element's name.
    struct FrameFault: Error {
        var description: String
    }

    /// A `<rect key="frame">`'s rect: its four numbers present, finite, within
    /// ±`largestCoordinate`, the size not negative (Interface Builder writes all four always).
    static func checkedFrame(_ rect: StoryboardElement) -> Result<Rect, FrameFault> {
        var numbers: [Double] = []
        for name in ["x", "y", "width", "height"] {
            guard let text = rect[name] else { return .failure(FrameFault(description: "a frame without \(name)")) }
            guard let number = Double(text), number.isFinite else {
                return .failure(FrameFault(description: "the frame's \(name) \"\(text)\" is not a number"))
            }
            guard abs(number) <= largestCoordinate else {
                return .failure(FrameFault(description: "the frame's \(name) \(text) is beyond ±1000000 points"))
            }
            guard number >= 0 || name == "x" || name == "y" else {
                return .failure(FrameFault(description: "the frame's \(name) \(text) is negative"))
            }
            numbers.append(number)
        }
        return .success(Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
    }

    /// The size of the scene's root view on the preview device, when written.
    static func rootViewSize(of controller: StoryboardElement) -> Size? {
        controller.children.first { $0["key"] == "view" }.flatMap(frame(of:))?.size
    }
}
