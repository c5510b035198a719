import Testing
import XCTest

/// Reports a failed expectation as an issue of the test framework that runs the current test,
/// at the expectation's own source location; the test goes on.
///
/// Under Swift Testing (`Test.current` is set: the caller runs inside a `@Test` function) the
/// issue is `Issue.record(_:sourceLocation:)`; otherwise it is XCTest's `XCTFail(_:file:line:)`.
package enum TestKitIssue {
    /// The framework a failure reported from here goes to.
    package enum Framework: Sendable, Equatable {
        case swiftTesting
        case xcTest
    }

    /// Swift Testing when a `@Test` function is running on this task, else XCTest.
    package static var framework: Framework {
        Test.current == nil ? .xcTest : .swiftTesting
    }

    /// Records `message` as a failure at `site`.
    package static func record(_ message: String, at site: ExpectationSite) {
        switch framework {
        case .swiftTesting:
            let location = SourceLocation(
                fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        case .xcTest:
            XCTFail(message, file: site.filePath, line: site.line)
        }
    }
}
