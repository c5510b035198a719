import TrellisTrace

/// Canonical lines by message kind: the filters and builders the rule tests share.
public enum Lines {
    /// The layout callbacks, which most rules do not talk about.
    public static let layoutKinds: Set<String> = [
        "viewWillLayoutSubviews", "viewDidLayoutSubviews", "containerViewWillLayoutSubviews", "containerViewDidLayoutSubviews",
    ]
    /// The appearance callbacks and completions: what R42 orders.
    public static let appearanceKinds = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear",
                                         "presentCompletion", "dismissCompletion"]
    public static let sizeKinds = ["viewWillTransition", "sizeForChild"]
    public static let traitKinds = ["willTransition", "traitCollectionDidChange"]
    public static let adaptationKinds = ["adaptivePresentationStyle", "willPresentWithAdaptiveStyle"]
    public static let presentationCallbackKinds = ["presentationTransitionWillBegin", "presentationTransitionDidEnd",
                                                   "dismissalTransitionWillBegin", "dismissalTransitionDidEnd"]

    /// The message kind of a canonical line (`viewWillTransition`), or "" when it has none.
    public static func kind(_ line: String) -> String { ExpectedLine.kind(of: line) ?? "" }

    /// `X viewWillLayoutSubviews`, `X viewDidLayoutSubviews` for each controller, in that order.
    public static func layout(_ controllers: String...) -> [String] {
        controllers.flatMap { ["\($0) viewWillLayoutSubviews", "\($0) viewDidLayoutSubviews"] }
    }
}
