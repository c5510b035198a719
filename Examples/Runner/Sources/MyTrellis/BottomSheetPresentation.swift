import TrellisModel
import TrellisRuntime

/// A sheet over the bottom half of the screen, as the Presentr library's bottom half: full
/// width, and moved up by the keyboard's height while the keyboard shows.
struct BottomSheetPresentation: PresentationControllerBehavior {
    /// The height of the keyboard on screen (0: none), kept across messages.
    enum KeyboardHeight: BehaviorStateKey {
        static let initialValue = 0.0
    }

    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width, (parentSize.height / 2).rounded(.down))
    }

    /// At the bottom of the container view, above the keyboard when it shows (the sheet is
    /// never pushed above the top).
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let height = (bounds.size.height / 2).rounded(.down)
        let y = max(bounds.minY, bounds.maxY - height - pc.state[KeyboardHeight.self])
        return Rect(x: bounds.minX, y: y, width: bounds.size.width, height: height)
    }

    /// `keyboardWillShow` carries the keyboard's height, a number.
    func valueType(forAction action: String) -> ActionValueType? {
        action == "keyboardWillShow" ? .number : nil
    }

    /// The keyboard notifications move the sheet at once, as the original's observer does.
    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        switch action {
        case "keyboardWillShow":
            pc.state[KeyboardHeight.self] = value?.number ?? 0
        case "keyboardWillHide":
            pc.state[KeyboardHeight.self] = 0
        default:
            return false
        }
        pc.setPresentedViewFrame(pc.frameOfPresentedViewInContainerView())
        return true
    }
}
