import TrellisModel

/// How a plain `view` container places its children (R61; the scenario's `layout`).
public enum ChildLayout: Sendable, Hashable {
    /// Every child at (0,0), over one another: UIKit's default for child view controllers.
    case overlay
    /// Side by side from the left, each at the right edge of the one before, top-aligned.
    case row
    /// Stacked from the top, each at the bottom edge of the one before, left-aligned.
    case column
    /// Each named child at its point; any other at (0,0).
    case origins([ControllerID: Point])
}
