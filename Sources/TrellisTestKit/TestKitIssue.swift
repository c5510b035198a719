import Testing
import XCTest

/// Reports a failed expectation as an issue of the test framework that runs the current test,
/// at the expectation's own source location; the test goes on.
///
/// Under Swift Testing (`Test.current` is set: the caller runs inside a `@Test` function) the
/// issue is `Issue.record(_:sourceLocation:)`; otherwise it is XCTest's `XCTFail(_:file:line:)`,
/// and `Issue.record` as well: outside an XCTest method `XCTFail` is dropped, while Swift Testing
/// fails its run with an issue recorded off a test's task (a detached task, a store that went
/// away after its test ended), and inside one Swift Testing drops it — so a failure is never lost
/// and never reported twice.
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
        let location = SourceLocation(
            fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
        switch framework {
        case .swiftTesting:
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        case .xcTest:
            XCTFail(message, file: site.filePath, line: site.line)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
    }
}
