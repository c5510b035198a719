import TrellisModel
import TrellisRuntime

/// The behaviours a registry names (SPEC §4.1), for the builder and both single-controller kits:
/// the same names a scenario file, a runner and a node use. A name the registry lacks fails the
/// test at the call and gives UIKit's default, so the test goes on to its next expectation.
///
/// ```swift
/// let registry = BehaviorRegistry().presentationController("Overlay", OverlayPresentation())
/// ViewController("P", modalPresentationStyle: .custom,
///                presentationController: PresentationControllerDescription(behavior: registry.registeredPresentationController("Overlay")))
/// ```
extension BehaviorRegistry {
    /// The view-controller behaviour registered as `name`.
    public func registeredViewController(
        _ name: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> any ViewControllerBehavior {
        if let behavior = viewControllerBehavior(named: name) { return behavior }
        missing(.viewController, name, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return DefaultBehavior()
    }

    /// The presentation-controller behaviour registered as `name`.
    public func registeredPresentationController(
        _ name: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> any PresentationControllerBehavior {
        if let behavior = presentationControllerBehavior(named: name) { return behavior }
        missing(.presentationController, name, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return DefaultPresentationBehavior()
    }

    /// The adaptive delegate registered as `name`; nil (no delegate, the profile's answers) when
    /// it is not registered.
    public func registeredAdaptiveDelegate(
        _ name: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> (any AdaptivePresentationDelegate)? {
        if let delegate = adaptiveDelegate(named: name) { return delegate }
        missing(.adaptiveDelegate, name, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return nil
    }

    private func missing(_ kind: BehaviorKind, _ name: String, at site: ExpectationSite) {
        TestKitIssue.record("no \(kind.words) is registered as \"\(name)\"", at: site)
    }
}
