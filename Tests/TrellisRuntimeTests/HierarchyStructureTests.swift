import Testing
import TrellisModel
@testable import TrellisRuntime

/// The presentation decisions as pure functions of the window's structure (R35, R37, R43–R46, R55, R56).
@Suite struct HierarchyStructureTests {
    /// R{N(nav){V}, X{Y}}, R presents A, A presents B.
    func sample() -> HierarchyStructure {
        var structure = HierarchyStructure(root: "R", nodes: [
            .init(id: "R", children: ["N", "X"]),
            .init(id: "N", kind: .navigation, children: ["V"]),
            .init(id: "V"),
            .init(id: "X", children: ["Y"]),
            .init(id: "Y"),
            .init(id: "A", children: ["A1"]),
            .init(id: "A1"),
            .init(id: "B"),
        ])
        structure.update("R") { $0.presented = "A" }
        structure.update("A") { $0.presenting = "R"; $0.presented = "B" }
        structure.update("B") { $0.presenting = "A" }
        return structure
    }

    @Test func fullScreenPresenterIsTheFirstControllerWithoutAParent() {
        let structure = sample()
        #expect(structure.fullScreenPresenter(from: "V") == "R")  // R35: V inside N inside R
        #expect(structure.fullScreenPresenter(from: "A1") == "A")  // a presented controller presents
        #expect(structure.fullScreenPresenter(from: "B") == "B")
    }

    @Test func presentationContextIsTheFirstDefinerElseTheRoot() {
        let structure = sample()
        #expect(structure.presentationContext(from: "V") == "N")  // navigation defines a context by default
        #expect(structure.presentationContext(from: "Y") == "R")  // nobody defines one
        var defining = structure
        defining.update("Y") { $0.definesPresentationContext = true }
        #expect(defining.presentationContext(from: "Y") == "Y")  // the receiver itself
    }

    @Test func dismissalSets() {
        let structure = sample()
        #expect(structure.dismissal(from: "R")?.presenter == "R")
        #expect(structure.dismissal(from: "R")?.removed == ["A", "B"])  // R44
        #expect(structure.dismissal(from: "B")?.presenter == "A")  // R43: forwarded to the presenter
        #expect(structure.dismissal(from: "B")?.removed == ["B"])
        #expect(structure.dismissal(from: "A1")?.presenter == "R")  // R46: the whole presented container
        #expect(structure.dismissal(from: "A1")?.removed == ["A", "B"])
        #expect(structure.dismissal(from: "Y") == nil)  // nothing presented anywhere above
    }

    @Test func showAndShowDetailHandlers() {
        var structure = sample()
        #expect(structure.showHandler(from: "V") == "N")
        #expect(structure.showHandler(from: "Y") == nil)  // R55: nobody, the root presents
        #expect(structure.showHandler(from: "A1") == nil)  // continues through A's presenter R: none
        structure.insert(.init(id: "S", kind: .split, children: ["M", "D"]))
        structure.insert(.init(id: "M", parent: "S"))
        structure.insert(.init(id: "D", parent: "S"))
        #expect(structure.showDetailHandler(from: "D") == "S")
        #expect(structure.showDetailHandler(from: "V") == nil)
    }

    @Test func hierarchyMembership() {
        let structure = sample()
        #expect(structure.isInHierarchy("V"))
        #expect(structure.isInHierarchy("A1"))  // inside a presented controller
        var detached = structure
        detached.insert(.init(id: "Loose"))
        #expect(!detached.isInHierarchy("Loose"))
    }
}

@Suite struct SerialMailboxTests {
    /// Many senders at once: every message is handled exactly once, one at a time, and each
    /// sender's messages in the order it sent them.
    @Test(.timeLimit(.minutes(1))) func deliversEverythingOneAtATimeInSenderOrder() async {
        actor Log {
            var seen: [Int: [Int]] = [:]
            var running = 0
            var maxRunning = 0
            func begin(_ sender: Int, _ value: Int) {
                running += 1
                maxRunning = max(maxRunning, running)
                seen[sender, default: []].append(value)
            }
            func end() { running -= 1 }
        }
        let log = Log()
        let (stream, finished) = AsyncStream<Void>.makeStream()
        let total = 4 * 500
        let counter = Counter()
        let mailbox = SerialMailbox<(Int, Int)> { message in
            await log.begin(message.0, message.1)
            await log.end()
            if counter.increment() == total { finished.yield() }
        }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for value in 0..<500 { mailbox.send((sender, value)) }
                }
            }
        }
        for await _ in stream { break }
        let seen = await log.seen
        for sender in 0..<4 {
            #expect(seen[sender] == Array(0..<500))
        }
        #expect(await log.maxRunning == 1)
        #expect(mailbox.isQuiescent || counter.value == total)
    }

    @Test func closedMailboxRefusesAndKeepsNothing() {
        let mailbox = SerialMailbox<Int> { _ in }
        mailbox.close()
        #expect(mailbox.send(1) == false)
        #expect(mailbox.isQuiescent)
    }
}

import Synchronization

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}
