import TrellisModel

/// A key for a piece of state a behaviour keeps across messages (SPEC §4), as SwiftUI's
/// environment keys are: the type names the slot and gives its value type and initial value.
///
/// ```swift
/// enum IncomingTraits: BehaviorStateKey {
///     static let initialValue: TraitCollection? = nil
/// }
/// // in willTransition(to:with:in:):   pc.state[IncomingTraits.self] = traits
/// // in size(forPresented:…in:):       pc.state[IncomingTraits.self] ?? pc.traitCollection
/// ```
public protocol BehaviorStateKey {
    /// The type of what the slot holds.
    associatedtype Value: Sendable
    /// What the slot holds before anything is written to it.
    static var initialValue: Value { get }
}

/// The state a behaviour keeps for one controller or presentation controller. It belongs to
/// that controller's actor: a behaviour reads and writes it through the context it is handed
/// (`vc.state`, `pc.state`), which is isolated to the controller, so no lock is needed and no
/// other controller can see it.
public struct BehaviorState: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// State with every slot at its initial value.
    public init() {}

    /// The value stored under `key`, or the key's initial value.
    public subscript<Key: BehaviorStateKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.initialValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
