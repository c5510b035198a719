import Testing
import TrellisTestKit

extension Issue {
    /// The issue's comments as one text: what the kit reported.
    var text: String { comments.map(\.rawValue).joined(separator: "\n") }

    /// Whether the issue was recorded at `line` of the file `fileID`.
    func isAt(line: Int, fileID: String) -> Bool {
        sourceLocation?.line == line && sourceLocation?.fileID == fileID
    }
}

/// The iPad hierarchy most kit tests start from: R with two children, A and B.
func padHierarchy() -> HierarchyDescription {
    HierarchyDescription(.iPadLandscape) {
        ViewController("R") { ViewController("A"); ViewController("B") }
    }
}
