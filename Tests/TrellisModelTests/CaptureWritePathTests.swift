import Foundation
import Synchronization
import Testing
import TrellisTrace
@testable import TrellisTraceFiles

/// A file writer sends whole pages through the page cache while copying into it is fast, and
/// straight to the disk otherwise (issue 27 item 8): the choice, with made-up copy times, and a
/// file written both ways, which must read back byte for byte.
@Suite("Capture files: the page cache while it is fast, direct writes otherwise")
struct CaptureWritePathTests {
    /// Copies of `bytes` each taking `nanoseconds`, `pieces` of them.
    static func copy(_ way: inout CaptureWritePath, pieces: Int, nanoseconds: UInt64) {
        for _ in 0..<pieces {
            #expect(way.next == .pageCache)
            way.copied(bytes: CaptureWritePath.pieceSize, cpuNanoseconds: nanoseconds)
        }
    }

    /// CPU nanoseconds a piece takes at `gigabytesPerSecond`.
    static func nanoseconds(atGigabytesPerSecond rate: Double) -> UInt64 {
        UInt64(Double(CaptureWritePath.pieceSize) / rate)
    }

    static let piecesJudged = CaptureWritePath.judgedBytes / CaptureWritePath.pieceSize

    @Test("fast copies keep the page cache; one slow piece among fast ones is judged with them")
    func fastStays() {
        var way = CaptureWritePath()
        for _ in 0..<20 {
            Self.copy(&way, pieces: Self.piecesJudged, nanoseconds: Self.nanoseconds(atGigabytesPerSecond: 4.3))
            way.blockEnded()
        }
        // A block's first piece out of the core's cache: slow alone, fast with the next three.
        way.copied(bytes: CaptureWritePath.pieceSize, cpuNanoseconds: Self.nanoseconds(atGigabytesPerSecond: 1.0))
        Self.copy(&way, pieces: Self.piecesJudged - 1, nanoseconds: Self.nanoseconds(atGigabytesPerSecond: 4.5))
        #expect(way.next == .pageCache)
        #expect(way.pageCacheBytes == 21 * CaptureWritePath.judgedBytes && way.directBytes == 0)
        // A clock that reads 0 (too coarse to see a copy): fast.
        Self.copy(&way, pieces: Self.piecesJudged, nanoseconds: 0)
        #expect(way.next == .pageCache)
    }

    @Test("slow copies (fresh pages) send the rest of the block and the next blocks direct, then the page cache is tried again")
    func slowGoesDirect() {
        var way = CaptureWritePath(fewestDirectBlocks: 3, mostDirectBlocks: 12)
        let fresh = Self.nanoseconds(atGigabytesPerSecond: 0.3)
        // Below the judged bytes nothing is decided, however slow.
        Self.copy(&way, pieces: Self.piecesJudged - 1, nanoseconds: fresh)
        #expect(way.next == .pageCache)
        way.copied(bytes: CaptureWritePath.pieceSize, cpuNanoseconds: fresh)
        #expect(way.next == .direct)
        way.wroteDirectly(bytes: 4 << 20)
        // The block that judged counts as the first of the three.
        for _ in 0..<3 {
            #expect(way.next == .direct)
            way.blockEnded()
        }
        #expect(way.next == .pageCache)
        // Slow again: twice as many direct blocks, then four times, at most twelve.
        for expected in [6, 12, 12] {
            Self.copy(&way, pieces: Self.piecesJudged, nanoseconds: fresh)
            var direct = 0
            while way.next == .direct {
                direct += 1
                way.blockEnded()
            }
            #expect(direct == expected)
        }
        // Fast once: the next slow judgement is back to three blocks.
        Self.copy(&way, pieces: Self.piecesJudged, nanoseconds: Self.nanoseconds(atGigabytesPerSecond: 4))
        way.blockEnded()
        Self.copy(&way, pieces: Self.piecesJudged, nanoseconds: Self.nanoseconds(atGigabytesPerSecond: 1.1))
        var direct = 0
        while way.next == .direct {
            direct += 1
            way.blockEnded()
        }
        #expect(direct == 3)
        #expect(way.directBytes == 4 << 20 && way.pageCacheBytes == 6 * CaptureWritePath.judgedBytes)
    }

    /// A made-up CPU clock: copies fast for `fast` judgements' worth of pieces, then slow for as
    /// many, and so on, so that the writer goes back and forth between the two ways.
    static func flippingClock(fast: Int) -> @Sendable () -> UInt64 {
        let reads = Atomic<UInt64>(0)
        let now = Atomic<UInt64>(0)
        return {
            let read = reads.add(1, ordering: .relaxed).oldValue
            let window = read / UInt64(2 * piecesJudged * fast)
            return now.add(window % 2 == 0 ? 1 : 1_000_000_000, ordering: .relaxed).newValue
        }
    }

    /// Whole pages both ways within blocks and from block to block, partial pages at each
    /// recorder's flush rewritten by the next block either way: the bytes the `String` writer
    /// gives, as every other way of writing.
    @Test("a JSON Lines file written partly through the page cache and partly directly reads back byte for byte")
    func bothWaysInOneFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-both-ways-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path, format: nil, directWrites: true,
                                         pagesWay: CaptureWritePath(fewestDirectBlocks: 1, mostDirectBlocks: 2), cpuClock: Self.flippingClock(fast: 3))
        let tap = CaptureLineBytesTests.Tap(writer)
        let recorders = [
            TraceRecorder(node: "main", runID: "both", storage: .file(tap)),
            TraceRecorder(node: "b", runID: "both", storage: .file(tap)),
        ]
        for round in 0..<6 {
            let recorder = recorders[round % 2]
            CaptureLineBytesTests.recordEverything(into: recorder, rounds: round % 3 == 0 ? 20 : 3)
            recorder.flush()
        }
        writer.close()
        #expect(writer.failure == nil)
        let ways = writer.pagesBytesByWay
        // Both ways, where the file system takes direct writes; where it takes none (tmpfs on an
        // older kernel, macOS), every byte went through the page cache, not counted by way.
        #expect(!writer.writesDirectly || (ways.pageCache > 0 && ways.direct > 0), "\(ways)")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = CaptureLineBytesTests.stringWriterBytes(of: tap.events.withLock { $0 }, runs: tap.runIDs.withLock { $0 })
        #expect(written.count == expected.count)
        let same = written == expected
        #expect(same, "the first difference is at byte \((0..<min(written.count, expected.count)).first { written[$0] != expected[$0] } ?? -1)")
    }
}
