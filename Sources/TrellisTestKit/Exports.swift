// `import TrellisTestKit` is all a test file needs: the value model (`Size`, `TraitCollection`,
// `ControllerID`, …) and the runtime's types a test names (`HierarchyDescription`,
// `ControllerDescription`, `PresentationControllerDescription`, behaviours, `WindowEvent`).
@_exported import TrellisModel
@_exported import TrellisRuntime
