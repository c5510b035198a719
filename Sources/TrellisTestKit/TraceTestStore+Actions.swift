import TrellisModel
import TrellisRuntime

/// Sugar over `perform`, one line each: the window event a helper names, performed with the
/// caller's site, so that a failure (events of the previous action nobody asserted, a refused
/// event) is reported at its line. A window event without a helper here is performed with
/// `perform(_:)` itself.
extension TraceTestStore {
    /// The window is resized (R1).
    public func resizeWindow(
        to size: Size,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.resizeWindow(size), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The window's traits change (merged into the current ones; R13).
    public func setTraits(
        _ traits: TraitCollection,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.setTraits(traits), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// One environment change carrying a new size and new traits, as a rotation does (R14).
    public func transition(
        to size: Size, traits: TraitCollection,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.transition(size: size, traits: traits), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The same, to a device setup (`.iPhoneLandscape`, …).
    public func transition(
        to setup: WindowSetup,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.transition(size: setup.size, traits: setup.traits), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `presenter.present(presented, animated:)`, with `style` overriding the controller's own.
    public func present(
        _ presented: ControllerID, from presenter: ControllerID, animated: Bool = true, style: ModalPresentationStyle? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.present(presented, from: presenter, animated: animated, style: style), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `controller.dismiss(animated:)`.
    public func dismiss(
        _ controller: ControllerID, animated: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.dismiss(controller, animated: animated), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `sender.show(controller, sender:)` (R55).
    public func show(
        _ controller: ControllerID, from sender: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.show(controller, from: sender), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `sender.showDetailViewController(controller, sender:)` (R56, R57).
    public func showDetail(
        _ controller: ControllerID, from sender: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.showDetail(controller, from: sender), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A navigation controller pushes `controller`.
    public func push(
        _ controller: ControllerID, onto navigation: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.push(controller, onto: navigation), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A navigation controller pops its top controller.
    public func pop(
        _ navigation: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.pop(navigation), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A tab bar controller selects its child at `index`.
    public func select(
        tab: ControllerID, index: Int,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.select(tab: tab, index: index), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `container.setOverrideTraitCollection(traits, forChild: child)`; nil removes it (R17).
    public func setTraitOverride(
        _ traits: TraitCollection?, forChild child: ControllerID, of container: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.setTraitOverride(container: container, child: child, traits: traits), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `controller.preferredContentSize = size` (R22).
    public func setPreferredContentSize(
        _ size: Size, of controller: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.setPreferredContentSize(controller, size), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `controller`'s fitting size changed: `systemLayoutFittingSizeDidChange` goes to its
    /// container (R27).
    public func systemLayoutFittingSizeDidChange(
        of controller: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.systemLayoutFittingSizeDidChange(controller), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A named user action for the behaviour of `controller` (or of `pc:P`, a presentation
    /// controller), with an optional value (SPEC §4.2): what its `perform` requests is carried
    /// out right after it, in the same action. A value that is not JSON (an infinite or NaN
    /// number) is refused by the window and fails the test at this call.
    public func action(
        _ name: String, on controller: ControllerID, value: ActionValue? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await perform(.action(name, on: controller, value: value), fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
