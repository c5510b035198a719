// docs/testing.md, "When a test fails": tests that fail on purpose. The document shows them
// with `@Test`; here they are plain functions, run under `withKnownIssue` by the test below,
// which checks that each failure is reported at its own line.

import Foundation
import Synchronization
import Testing
import TrellisTestKit

func twoWrongExpectations() async throws {
    let store = try await TraceTestStore(sidebarHierarchy())
    await store.present("S", from: "R")
    store.expect(["pc:S frameOfPresentedViewInContainerView -> 512,0 512x768"], kinds: nil)   // wrong: a third is 341.333
    await store.resizeWindow(to: Size(768, 1024))
    store.expect(["S viewWillTransition(to: 384x1024)"], kinds: nil)                   // wrong again
    await store.finish()
}

func forgottenAssertion() async throws {
    let store = try await TraceTestStore(sidebarHierarchy())
    await store.present("S", from: "R")
    store.skipReceivedEvents()
    await store.resizeWindow(to: Size(768, 1024))
}

@Suite struct FailingOnPurposeTests {
    /// The line of this file that contains `text`, to check where a failure was reported.
    static func line(containing text: String) -> Int? {
        guard let source = try? String(contentsOfFile: #filePath, encoding: .utf8) else { return nil }
        return source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }.map { $0 + 1 }
    }

    @Test func bothWrongExpectationsAreReportedAtTheirOwnLines() async throws {
        let first = try #require(Self.line(containing: "-> 512,0 512x768\"], kinds: nil)"))
        let second = try #require(Self.line(containing: "(to: 384x1024)\"], kinds: nil)"))
        let reported = ReportedLines()
        await withKnownIssue {
            do { try await twoWrongExpectations() } catch { Issue.record(error) }
        } matching: { issue in
            reported.add(issue.sourceLocation?.line ?? 0)
            return issue.sourceLocation?.fileID.hasSuffix("FailingOnPurpose.swift") == true
        }
        #expect(reported.all == [first, second])
    }

    @Test func theForgottenAssertionFailsAtTheLineThatMadeTheStore() async throws {
        let madeInForgotten = try #require(Self.line(containing: "func forgottenAssertion()")) + 1
        await withKnownIssue {
            do { try await forgottenAssertion() } catch { Issue.record(error) }
        } matching: { issue in
            issue.sourceLocation?.line == madeInForgotten
                && issue.comments.contains { $0.rawValue.contains("the store went away with 11 event(s) nobody asserted") }
        }
    }
}

/// The lines issues were reported at, in order (the matcher runs on the test's task, but must be
/// Sendable).
final class ReportedLines: Sendable {
    private let lines = Mutex<[Int]>([])

    func add(_ line: Int) { lines.withLock { $0.append(line) } }

    var all: [Int] { lines.withLock { $0 } }
}
