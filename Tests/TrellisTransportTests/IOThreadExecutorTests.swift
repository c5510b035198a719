import Foundation
import Synchronization
import Testing
import TrellisTrace
@testable import TrellisTransport
import TrellisWire
import TrellisTestSupport

/// A node's I/O thread as a task executor: what runs there, what it sends without a wake-up,
/// where inbound CALLs are served, and that nothing hangs once the thread has ended.
@Suite(.distributedHangGuard)
struct IOThreadExecutorTests {
    /// Heartbeats so rare that a message left waiting for a wake-up would sit until the test's
    /// time limit: a turn of the loop that forgot what a job queued cannot pass unnoticed.
    static func configuration(_ name: String, in directory: URL) -> NodeIOConfiguration {
        var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: "ipc://\(directory.path)/\(name).sock")
        configuration.heartbeatIntervalMilliseconds = 600_000
        configuration.peerTimeoutMilliseconds = 600_000
        return configuration
    }

    @Test("a task that prefers the I/O thread runs on it, and what it sends leaves in the same turn")
    func preferredTaskRunsOnTheIOThread() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = BatchingTests.Received()
        let receiver = try await NodeIO.start(Self.configuration("receiver", in: directory), heartbeat: [],
                                              onMessage: { _, frames in received.take(frames) }, onEvent: { _ in })
        let sender = try await NodeIO.start(Self.configuration("sender", in: directory), heartbeat: [],
                                            onMessage: { _, _ in }, onEvent: { _ in })
        #expect(!sender.isIOThread)
        sender.connect(peer: "receiver", endpoint: receiver.boundEndpoint)
        let ranThere = await withTaskExecutorPreference(sender) {
            let onThread = sender.isIOThread
            for index in 1...3 { sender.send(to: "receiver", BatchingTests.call(UInt64(index))) }
            return onThread
        }
        #expect(ranThere)
        // The first message is sent when the ROUTER has connected; later ones without any wake.
        #expect(await received.wait(for: 3).correlations == [1, 2, 3])
        await withTaskExecutorPreference(sender) {
            sender.send(to: "receiver", BatchingTests.call(4))
        }
        #expect(await received.wait(for: 4).correlations == [1, 2, 3, 4])
        await sender.stop()
        await receiver.stop()
    }

    @Test("a task that prefers an I/O thread that has ended still runs to its end")
    func stoppedThreadHandsJobsOn() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let io = try await NodeIO.start(Self.configuration("alone", in: directory), heartbeat: [],
                                        onMessage: { _, _ in }, onEvent: { _ in })
        // Stopping from the I/O thread itself: the stop resumes this task after the thread ended.
        let afterStop = await withTaskExecutorPreference(io) {
            await io.stop()
            await Task.yield()
            return io.isIOThread
        }
        #expect(!afterStop)
        let later = await Task(executorPreference: io) { io.isIOThread }.value
        #expect(!later)
    }

    @Test("once the I/O thread has ended, no thread passes for it, not even one that reuses its descriptor")
    func endedThreadIsForgotten() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let io = try await NodeIO.start(Self.configuration("ended", in: directory), heartbeat: [],
                                        onMessage: { _, _ in }, onEvent: { _ in })
        await io.stop()
        #expect(Self.newThreadsPassingFor(io, count: 50) == 0)
    }

    /// How many of `count` threads, made one after another, pass for `io`'s I/O thread. glibc
    /// hands an exited thread's descriptor, and so its `pthread_t`, to a thread made after it.
    static func newThreadsPassingFor(_ io: NodeIO, count: Int) -> Int {
        var passed = 0
        for _ in 0..<count {
            let result = Mutex(false)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                result.withLock { $0 = io.isIOThread }
                done.signal()
            }
            thread.start()
            done.wait()
            if result.withLock({ $0 }) { passed += 1 }
        }
        return passed
    }

    @Test("a CALL is served on the I/O thread or on the shared pool, as its placement says")
    func callPlacement() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let caller = NodeTransport(nodeName: "a", recorder: TraceRecorder(node: "a", storage: .discard))
        let server = NodeTransport(nodeName: "b", recorder: TraceRecorder(node: "b", storage: .discard))
        let callerEndpoint = try await caller.start(Self.configuration("a", in: directory))
        let serverEndpoint = try await server.start(Self.configuration("b", in: directory))
        let serverIO = try #require(await server.executor as? NodeIO)
        await server.setHandlers(
            call: { _, _ in .ok([.bool(serverIO.isIOThread)]) },
            placement: { $0 == .snapshot ? .ioThread : .sharedPool },
            control: { _, _ in }, peerGone: { _, _ in })
        await caller.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
        await caller.connect(peer: "b", endpoint: serverEndpoint)
        await server.connect(peer: "a", endpoint: callerEndpoint)
        let target = WireAddress(node: "b", controller: "C", incarnation: 1)
        let snapshot = await caller.call(peer: "b", target: target, code: .snapshot, arguments: [])
        let layout = await caller.call(peer: "b", target: target, code: .layout, arguments: [.none])
        #expect(snapshot == .ok([.bool(true)]))
        #expect(layout == .ok([.bool(false)]))
        // The same from a caller on its own I/O thread: the RETURN resumes it there.
        let callerIO = try #require(await caller.executor as? NodeIO)
        let resumedThere = await withTaskExecutorPreference(callerIO) {
            _ = await caller.call(peer: "b", target: target, code: .snapshot, arguments: [])
            return callerIO.isIOThread
        }
        #expect(resumedThere)
        await caller.stop()
        await server.stop()
    }

    @Test("a stopped transport lets go of its I/O, and with it the thread's eventfd (no descriptor per run)")
    func stoppedTransportReleasesItsIO() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        weak var callerIO: NodeIO?
        weak var serverIO: NodeIO?
        do {
            let caller = NodeTransport(nodeName: "a", recorder: TraceRecorder(node: "a", storage: .discard))
            let server = NodeTransport(nodeName: "b", recorder: TraceRecorder(node: "b", storage: .discard))
            let callerEndpoint = try await caller.start(Self.configuration("a", in: directory))
            let serverEndpoint = try await server.start(Self.configuration("b", in: directory))
            callerIO = await caller.executor as? NodeIO
            serverIO = await server.executor as? NodeIO
            #expect(callerIO != nil && serverIO != nil)
            // Served on the pool: the CALL goes through the server's inbound queue, whose drains
            // prefer the I/O thread.
            await server.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
            await caller.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
            await caller.connect(peer: "b", endpoint: serverEndpoint)
            await server.connect(peer: "a", endpoint: callerEndpoint)
            let target = WireAddress(node: "b", controller: "C", incarnation: 1)
            #expect(await caller.call(peer: "b", target: target, code: .layout, arguments: [.none]) == .ok([]))
            await caller.stop()
            await server.stop()
        }
        // The threads end right after `stop()` returns and drop their own references then: a
        // bounded wait for that, not for any message.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while (callerIO != nil || serverIO != nil) && clock.now < deadline { await Task.yield() }
        #expect(callerIO == nil, "the caller's NodeIO outlived its transport")
        #expect(serverIO == nil, "the server's NodeIO outlived its transport")
    }

    @Test("a node serves calls that only read or rewire a controller on its I/O thread, the rest on the pool")
    func hostPlacement() {
        let onIOThread = WireCallCode.allCases.filter { NodeHost.placement(for: $0) == .ioThread }
        #expect(Set(onIOThread) == [.snapshot, .childFrame, .setContainer, .attachPresentation, .detachPresentation, .appendChild,
                                    .removeLastChild, .replaceChild, .makePresentationController, .presentationState])
    }
}
