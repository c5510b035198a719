/// The built-in containers of SPEC §3.2. What each one does — which children a transition is
/// forwarded to, the size each gets when nobody overrides `size(forChildContentContainer:…)`,
/// when it collapses and where it places its children — is decided in `ContainerRules`, whose
/// rules name every kind: a new case here does not compile until each of them has decided.
public enum ContainerKind: String, Sendable, CaseIterable {
    /// A plain view controller: forwards to all children, each gets the parent's size.
    case view
    /// A navigation controller: the children are the stack; only the top one is forwarded to.
    case navigation
    /// A split view controller `[primary, secondary]`: both in regular width (primary 320 points
    /// wide, a 1-point divider, secondary the rest); collapsed in compact width (primary full
    /// size, secondary silent).
    case split
    /// A tab bar controller: only the selected child is forwarded to.
    case tab
}
