import Dispatch
import Foundation
import Synchronization
import Testing
import TrellisModel
import TrellisTrace

/// A segment of recordings (`TraceRecorder.recordingSegment`: a synchronous walk) holds the
/// recorder's lock across its calls. Other threads must still record every event, never among
/// a segment's (short of `segmentLength` of them), each thread's in the order of its calls, and
/// a long segment must let them in.
@Suite("Trace recorder segments: one lock for a run of recordings")
struct TraceRecorderSegmentTests {
    /// The recorder's give-up length (`SegmentLock.segmentLength`), which a segment below it
    /// never reaches.
    static let segmentLength = 256

    /// Records `count` events of `name` on this thread, each caused by the one before, and
    /// returns their sequence numbers.
    static func record(_ count: Int, _ name: TraceName, into recorder: TraceRecorder) -> [UInt64] {
        var cause: EventRef?
        var sequences: [UInt64] = []
        for index in 0..<count {
            let event = recorder.recordViewWillTransition(to: Size(Double(index), 1), controller: name, cause: cause, transition: index)
            sequences.append(event.sequence)
            cause = event
        }
        return sequences
    }

    @Test("three threads, two recording in segments, one without: every event, each segment's contiguous, each thread's in order")
    func concurrentSegments() {
        let recorder = TraceRecorder()
        let names = (0..<3).map { recorder.intern(ControllerID("w\($0)")) }
        let rounds = 300, perSegment = 7
        let results = Mutex<[Int: [[UInt64]]]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            var runs: [[UInt64]] = []
            for _ in 0..<rounds {
                if thread == 2 {
                    runs.append(Self.record(perSegment, names[thread], into: recorder))
                } else {
                    var run: [UInt64] = []
                    recorder.recordingSegment { run = Self.record(perSegment, names[thread], into: recorder) }
                    runs.append(run)
                }
            }
            results.withLock { $0[thread] = runs }
        }
        let all = results.withLock { $0 }
        let total = 3 * rounds * perSegment
        #expect(recorder.count == total)
        let events = recorder.events
        #expect(events.map(\.id.sequence) == (1...UInt64(total)).map { $0 })
        for thread in 0..<3 {
            let runs = all[thread] ?? []
            #expect(runs.count == rounds)
            let flat = runs.flatMap { $0 }
            #expect(flat == flat.sorted(), "thread \(thread)'s events out of the order of its calls")
            // Each event is the one its thread recorded: its controller and its cause.
            for run in runs {
                for (index, sequence) in run.enumerated() {
                    let event = events[Int(sequence) - 1]
                    #expect(event.controller == ControllerID("w\(thread)"))
                    #expect(event.cause?.sequence == (index == 0 ? nil : run[index - 1]))
                }
            }
            guard thread < 2 else { continue }
            for run in runs {
                #expect(run.last.map { $0 - run[0] } == UInt64(perSegment - 1), "another thread recorded inside a segment: \(run)")
            }
        }
    }

    @Test("a segment longer than its length lets a waiting thread in, and the events around it stay in order")
    func longSegmentGivesTheLockUp() {
        let recorder = TraceRecorder(storage: .discard)
        let holder = recorder.intern("holder"), other = recorder.intern("other")
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let otherSequence = Atomic<UInt64>(0)
        // A thread of its own: the global queue's few threads may all be busy with other tests.
        Thread {
            started.wait()
            otherSequence.store(recorder.recordViewWillTransition(to: Size(1, 1), controller: other, cause: nil, transition: nil).sequence, ordering: .releasing)
            finished.signal()
        }.start()
        var recorded: [UInt64] = []
        recorder.recordingSegment {
            recorded.append(recorder.recordViewWillTransition(to: Size(0, 0), controller: holder, cause: nil, transition: nil).sequence)
            started.signal()
            // Bounded: 20 million events, some seconds; the other thread gets in within the
            // first few hundred unless the segment never gives the lock up.
            while otherSequence.load(ordering: .acquiring) == 0 && recorded.count < 20_000_000 {
                recorded.append(recorder.recordViewWillTransition(to: Size(0, 0), controller: holder, cause: nil, transition: nil).sequence)
            }
        }
        finished.wait()
        let sequence = otherSequence.load(ordering: .acquiring)
        #expect(recorded.count < 20_000_000, "the waiting thread never got the lock inside a long segment")
        #expect(!recorded.contains(sequence))
        #expect(sequence >= UInt64(Self.segmentLength), "another thread recorded before the segment's first \(Self.segmentLength) events")
        // The holder's events are in order with one gap, where the other thread's event went.
        #expect(recorded == recorded.sorted())
        #expect(recorder.recordedCount == recorded.count + 1)
    }

    @Test("segments nest, record on the thread that holds them, and leave the lock free")
    func nestedSegments() {
        let recorder = TraceRecorder()
        let name = recorder.intern("nested")
        var inner: [UInt64] = []
        recorder.recordingSegment {
            _ = Self.record(2, name, into: recorder)
            recorder.recordingSegment { inner = Self.record(3, name, into: recorder) }
            _ = Self.record(1, name, into: recorder)
        }
        #expect(inner == [3, 4, 5])
        // Another thread can record now: the segment gave the lock back (a held lock would keep
        // it waiting past the bound).
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = Self.record(1, name, into: recorder)
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(recorder.events.map(\.id.sequence) == [1, 2, 3, 4, 5, 6, 7])
    }

    /// A chunk sink that records on the recorder it is the sink of, from inside `write`.
    final class CallingBack: TraceChunkSink {
        let recorder = Mutex<TraceRecorder?>(nil)
        let written = Mutex(0)

        func write(_ chunk: consuming TraceChunk) {
            written.withLock { $0 += 1 }
            guard let recorder = recorder.withLock({ $0 }) else { return }
            recorder.record(.note("from the sink"), controller: "sink", cause: nil)
        }

        func waitUntilWritten() {}
    }

    @Test("a chunk sink that calls back into its recorder from write traps, rather than get the recorder's state lent out twice")
    func sinkCallingBackTraps() async {
        await #expect(processExitsWith: .failure) {
            let sink = CallingBack()
            let recorder = TraceRecorder(storage: .file(sink))
            sink.recorder.withLock { $0 = recorder }
            recorder.record(.note("before"), controller: "c", cause: nil)
            recorder.flush()
        }
    }

    @Test("a chunk sink that does not call back gets every chunk, and the recorder records on after it")
    func sinkNotCallingBack() {
        let sink = CallingBack()
        let recorder = TraceRecorder(storage: .file(sink))
        let name = recorder.intern("c")
        recorder.recordingSegment { _ = Self.record(3, name, into: recorder) }
        recorder.flush()
        #expect(sink.written.withLock { $0 } == 1)
        _ = Self.record(2, name, into: recorder)
        recorder.flush()
        #expect(sink.written.withLock { $0 } == 2 && recorder.recordedCount == 5)
    }
}
