import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// Stands in for a controller (or presentation controller) that another node hosts: each
/// message becomes one CALL to that node, which handles the controller's whole subtree there and
/// RETURNs when done — crossing a node boundary costs one exchange, not one per controller.
package actor RemoteController: ManagedController, ManagedPresentationController {
    package nonisolated let id: ControllerID
    package nonisolated let address: WireAddress
    let host: NodeHost

    init(address: WireAddress, host: NodeHost) {
        self.id = ControllerID(address.controller)
        self.address = address
        self.host = host
    }

    /// One CALL; nil when it failed (the failure is recorded as a fault and ends the run).
    @discardableResult
    private func call(_ code: WireCallCode, _ arguments: [WireValue] = []) async -> [WireValue]? {
        await host.call(address, code, arguments)
    }

    private func send(_ code: WireCallCode, _ arguments: WireValue...) async {
        await call(code, arguments)
    }

    private func value(of endpoint: (any ControllerEndpoint)?) async -> WireValue {
        guard let endpoint else { return .none }
        return .address(await host.address(of: endpoint))
    }

    // MARK: ControllerEndpoint

    package func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async {
        await send(.viewWillTransition, .size(size), WireMarshalling.value(transition), WireMarshalling.value(cause))
    }

    package func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        await send(.traitTransition, .traits(traits), .bool(deliver), WireMarshalling.value(transition), WireMarshalling.value(cause))
    }

    package func applyPendingTraits(cause: EventRef?) async {
        await send(.applyPendingTraits, WireMarshalling.value(cause))
    }

    package func layout(frame: Rect, cause: EventRef?) async {
        await send(.layout, .rect(frame), WireMarshalling.value(cause))
    }

    package func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async {
        await send(.preferredContentSizeDidChange, .string(child.name), .size(preferredSize), WireMarshalling.value(cause))
    }

    package func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async {
        await send(.systemLayoutFittingSizeDidChange, .string(child.name), WireMarshalling.value(cause))
    }

    package func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async {
        await send(.initialLayout, frame.map(WireValue.rect) ?? .none, .traits(traits), WireMarshalling.value(cause))
    }

    package func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        await send(.appearance, .string(callback.rawValue), WireMarshalling.value(cause))
    }

    package func refresh(frame: Rect, traits: TraitCollection, cause: EventRef?) async {
        await send(.refresh, .rect(frame), .traits(traits), WireMarshalling.value(cause))
    }

    package func setContainer(_ container: (any ControllerEndpoint)?) async {
        await call(.setContainer, [await value(of: container)])
    }

    // MARK: ManagedController

    package func snapshot() async -> ControllerSnapshot {
        guard let values = await call(.snapshot) else {
            return ControllerSnapshot(size: .zero, traitCollection: .unspecified, preferredContentSize: .zero)
        }
        guard values.count >= 3, case let .size(size) = values[0], case let .traits(traits) = values[1],
              case let .size(preferred) = values[2] else {
            await unreadableResults(.snapshot, values)
            return ControllerSnapshot(size: .zero, traitCollection: .unspecified, preferredContentSize: .zero)
        }
        // Without the frame (a node that does not track origins), its size at (0,0) (TWP §8).
        var frame: Rect?
        if values.count >= 4, case let .rect(rect) = values[3] { frame = rect }
        return ControllerSnapshot(size: size, traitCollection: traits, preferredContentSize: preferred, frame: frame)
    }

    /// TWP §8: a caller checks the count and types of the results; results that do not match
    /// are a fault of the run, not quietly replaced.
    private func unreadableResults(_ code: WireCallCode, _ values: [WireValue]) async {
        await host.noteFault("\(code) from \(address.node) returned \(values.count) values that do not match TWP/1.1 §8")
    }

    package func frame(ofChild child: ControllerID) async -> Rect? {
        guard case let .rect(frame)? = await call(.childFrame, [.string(child.name)])?.first else { return nil }
        return frame
    }

    package func setPreferredContentSize(_ newSize: Size, cause: EventRef?) async {
        await send(.setPreferredContentSize, .size(newSize), WireMarshalling.value(cause))
    }

    package func notifySystemLayoutFittingSizeDidChange(cause: EventRef?) async {
        await send(.notifySystemLayoutFittingSizeDidChange, WireMarshalling.value(cause))
    }

    package func setOverrideTraitCollection(_ traits: TraitCollection?, forChild child: ControllerID, transition: TransitionInfo, cause: EventRef?) async throws(RuntimeError) {
        await send(.setOverrideTraits, traits.map(WireValue.traits) ?? .none, .string(child.name),
                   WireMarshalling.value(transition), WireMarshalling.value(cause))
    }

    package func attachPresentation(_ presentationController: any ControllerEndpoint, inheritsPresenterTraits: Bool) async {
        await call(.attachPresentation, [await value(of: presentationController), .bool(inheritsPresenterTraits)])
    }

    package func detachPresentation() async {
        await call(.detachPresentation)
    }

    package func appendChild(_ child: any ControllerEndpoint) async {
        await call(.appendChild, [await value(of: child)])
    }

    package func removeLastChild() async {
        await call(.removeLastChild)
    }

    package func replaceChild(at index: Int, with child: any ControllerEndpoint) async {
        await call(.replaceChild, [.int(Int64(index)), await value(of: child)])
    }

    package func select(index: Int, cause: EventRef?) async {
        await send(.select, .int(Int64(index)), WireMarshalling.value(cause))
    }

    package func showChild(at index: Int, cause: EventRef?) async {
        await send(.showChild, .int(Int64(index)), WireMarshalling.value(cause))
    }

    /// The presentation controller is created on the node hosting this controller; the
    /// `wrapperChanged` closure stays here: that node tells the conductor's window itself.
    package func makePresentationController(
        style: ModalPresentationStyle, containerSize: Size, traits: TraitCollection, windowSize: Size,
        profile: AdaptationProfile, popoverSource: @escaping @Sendable () async -> Rect?,
        wrapperChanged: @escaping @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void
    ) async -> any ManagedPresentationController {
        let fallback = WireAddress(node: address.node, controller: ControllerID.presentationController(of: id).name, incarnation: address.incarnation)
        guard let values = await call(.makePresentationController, [.string(style.rawValue), .size(containerSize), .traits(traits), .size(windowSize), .none]),
              case let .address(pc) = values.first else {
            return await host.proxy(for: fallback)
        }
        return await host.proxy(for: pc)
    }

    // MARK: ManagedPresentationController

    package func adaptForPresentation(cause: EventRef?) async {
        await send(.adaptForPresentation, WireMarshalling.value(cause))
    }

    package func prepareDisplayed() async {
        await call(.prepareDisplayed)
    }

    package func transitionCallback(_ callback: PresentationCallback, value: Bool, cause: EventRef?) async {
        await send(.presentationCallback, .string(callback.rawValue), .bool(value), WireMarshalling.value(cause))
    }

    package func initialPresentationLayout(cause: EventRef?) async {
        await send(.initialPresentationLayout, WireMarshalling.value(cause))
    }

    package func presentationState() async -> PresentationState {
        let unknown = PresentationState(
            removesPresenterViews: false, displayedID: id, style: .fullScreen, coversContext: false,
            containerViewBounds: .zero, presentedViewFrame: .zero)
        guard let values = await call(.presentationState) else { return unknown }
        guard values.count >= 6, case let .bool(removes) = values[0], case let .string(displayed) = values[1],
              case let .string(styleName) = values[2], let style = ModalPresentationStyle(rawValue: styleName),
              case let .bool(coversContext) = values[3], case let .rect(container) = values[4], case let .rect(frame) = values[5] else {
            await unreadableResults(.presentationState, values)
            return unknown
        }
        return PresentationState(
            removesPresenterViews: removes, displayedID: ControllerID(displayed), style: style, coversContext: coversContext,
            containerViewBounds: container, presentedViewFrame: frame)
    }

    package func deliverDisplayedAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        await send(.displayedAppearance, .string(callback.rawValue), WireMarshalling.value(cause))
    }
}
