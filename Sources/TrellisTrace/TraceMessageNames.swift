extension TraceMessage {
    /// Every message name an event line can carry (`name`, the kind of an `expect` line), so
    /// that a scenario's `expect` lines can be checked before anything runs.
    public static let eventNames: Set<String> = {
        var names: Set<String> = [
            "viewWillTransition", "sizeForChild", "frameOfPresentedViewInContainerView", "willTransition", "traitCollectionDidChange",
            "preferredContentSizeDidChange", "systemLayoutFittingSizeDidChange", "suppressed",
            "alongsideTransition", "transitionCompletion", "warning", "error", "fault", "note",
            "present", "dismiss", "adaptivePresentationStyle", "willPresentWithAdaptiveStyle",
            "presentCompletion", "dismissCompletion", "show", "showDetail", "push", "pop", "replaceDetail", "select",
        ]
        names.formUnion(LayoutCallback.allCases.map(\.rawValue))
        names.formUnion(AppearanceCallback.allCases.map(\.rawValue))
        names.formUnion(PresentationCallback.allCases.map(\.rawValue))
        return names
    }()
}
