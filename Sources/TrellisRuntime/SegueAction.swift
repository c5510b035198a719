import TrellisModel

/// What performing a storyboard segue does (SPEC §11), decided when the scenario was read: the
/// destination is already the fresh copy this performance made (`DEST~N`), and a presentation's
/// style and popover anchor are already that copy's own, as UIKit's segue sets them on the
/// destination before presenting it.
public enum SegueAction: Sendable, Equatable {
    /// `presentation`, `modal`, `popoverPresentation`: `from` presents the copy, animated, in the
    /// copy's style (§3.5).
    case present(ControllerID, from: ControllerID)
    /// `show`, `push`: `from.show(copy, sender:)` (R55).
    case show(ControllerID, from: ControllerID)
    /// `showDetail`: `from.showDetailViewController(copy, sender:)` (R56, R57).
    case showDetail(ControllerID, from: ControllerID)
    /// `unwind`: the presented controller that holds `from` is dismissed (R43–R46).
    case unwind(from: ControllerID)

    /// The controller this performance brings into the window, with the one that brings it.
    public var introduced: (controller: ControllerID, by: ControllerID)? {
        switch self {
        case let .present(copy, from), let .show(copy, from), let .showDetail(copy, from): return (copy, from)
        case .unwind: return nil
        }
    }
}

extension SegueAction {
    /// The controller the segue starts from.
    public var source: ControllerID {
        switch self {
        case let .present(_, from), let .show(_, from), let .showDetail(_, from), let .unwind(from): from
        }
    }

    /// The same performance from `source`.
    func from(_ source: ControllerID) -> SegueAction {
        switch self {
        case let .present(copy, _): .present(copy, from: source)
        case let .show(copy, _): .show(copy, from: source)
        case let .showDetail(copy, _): .showDetail(copy, from: source)
        case .unwind: .unwind(from: source)
        }
    }
}

extension SegueAction: CustomStringConvertible {
    /// As the step's header says it after the segue's id: `present Info~1 from Detail`.
    public var description: String {
        switch self {
        case let .present(copy, from): return "present \(copy) from \(from)"
        case let .show(copy, from): return "show \(copy) from \(from)"
        case let .showDetail(copy, from): return "showDetail \(copy) from \(from)"
        case let .unwind(from): return "unwind from \(from)"
        }
    }
}
