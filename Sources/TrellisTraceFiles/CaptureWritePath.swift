/// Which way a file writer sends its whole pages to the file, piece by piece: through the page
/// cache while copying into it is clearly faster than the disk takes direct writes, straight to
/// the disk (`O_DIRECT`) otherwise. The state machine alone, fed the CPU time each page-cache
/// piece took, so that its choices can be checked with made-up times.
///
/// Why both (measured on the project's VM, ext4 on a virtio disk, 2026-11-28): direct writes
/// run at the disk's 1.4–2.0 GB/s whatever is done (one writer or four, the file's blocks
/// allocated first or not) and cost no CPU; a copy into the page cache runs at 3.1–5.4 GB/s
/// where the kernel hands out pages the VM has touched before, but at 0.28–0.33 GB/s where it
/// hands out pages the VM never touched, or gave back to the host since (the first touch of a
/// guest page is the host's fault to serve). Which kind the kernel hands out depends on what the
/// machine freed in the last seconds, so it is measured as the writer goes: copies slower than
/// `fastEnough` send the writer to direct writes for a number of blocks, then the page cache is
/// tried again. Running both at once gains nothing: a buffered write and a direct write of one
/// file exclude each other (ext4 holds the file's lock through a direct write's wait), so two
/// writers, one each way, wrote no faster than the two ways in turn.
struct CaptureWritePath {
    /// Where the next piece goes.
    enum Way: Equatable {
        case pageCache
        case direct
    }

    /// The bytes of a piece: one copy into the page cache, timed (32 pages).
    static let pieceSize = 128 << 10
    /// The copies judged together: a block's first piece alone often copies at 1–2.5 GB/s on
    /// warm pages (its bytes out of the core's cache), the next at 4–5.
    static let judgedBytes = 4 * pieceSize
    /// The copy rate, in bytes per CPU nanosecond (GB/s), below which direct writes take over:
    /// warm pages copied at 3.5–5 GB/s in the bench's JSON Lines file trace, fresh ones at 0.3.
    static let fastEnough = 1.2
    /// Blocks written directly after a slow judgement before the page cache is tried again,
    /// counting the block the judgement was made in (its rest goes direct); each judgement that
    /// is slow again doubles it, up to `mostDirectBlocks`: a try that meets fresh pages costs
    /// `judgedBytes` at 0.3 GB/s (about 1.7 ms), against the 4 MB blocks' 2.5 ms of disk each.
    /// A fast judgement starts the count again from `fewestDirectBlocks`.
    let fewestDirectBlocks: Int
    let mostDirectBlocks: Int

    /// The whole pages written through the page cache and directly (for the tests).
    private(set) var pageCacheBytes = 0
    private(set) var directBytes = 0
    /// The page cache was measured fast (or not yet measured).
    private var trustsPageCache = true
    /// Bytes and CPU time of the copies not yet judged.
    private var copiedBytes = 0
    private var copyNanoseconds: UInt64 = 0
    /// Blocks still to write directly before the next try of the page cache.
    private var directBlocksLeft = 0
    /// Blocks to write directly after the next slow judgement.
    private var directBlocksAfterSlow: Int

    /// Direct blocks after a first slow judgement, and at most after several (the tests take
    /// fewer than the 8 and 64 of a file writer, so that a small file sees every change).
    init(fewestDirectBlocks: Int = 8, mostDirectBlocks: Int = 64) {
        self.fewestDirectBlocks = max(1, fewestDirectBlocks)
        self.mostDirectBlocks = max(self.fewestDirectBlocks, mostDirectBlocks)
        directBlocksAfterSlow = self.fewestDirectBlocks
    }

    /// Where the next piece of the block goes.
    var next: Way { trustsPageCache ? .pageCache : .direct }

    /// A piece of `bytes` went through the page cache in `cpuNanoseconds` of the writer's
    /// thread: once `judgedBytes` are copied, a rate under `fastEnough` sends the rest of the
    /// block and the next blocks direct.
    mutating func copied(bytes: Int, cpuNanoseconds: UInt64) {
        pageCacheBytes += bytes
        guard trustsPageCache else { return }
        copiedBytes += bytes
        copyNanoseconds &+= cpuNanoseconds
        guard copiedBytes >= Self.judgedBytes else { return }
        // Copies timed at 0 (a coarse clock) were fast.
        let fast = Double(copiedBytes) >= Self.fastEnough * Double(copyNanoseconds)
        copiedBytes = 0
        copyNanoseconds = 0
        if fast {
            directBlocksAfterSlow = fewestDirectBlocks
        } else {
            trustsPageCache = false
            directBlocksLeft = directBlocksAfterSlow
            directBlocksAfterSlow = min(2 * directBlocksAfterSlow, mostDirectBlocks)
        }
    }

    /// `bytes` of whole pages went straight to the disk.
    mutating func wroteDirectly(bytes: Int) {
        directBytes += bytes
    }

    /// A block's whole pages are written: after enough direct blocks, the next block tries the
    /// page cache again.
    mutating func blockEnded() {
        guard !trustsPageCache else { return }
        directBlocksLeft -= 1
        if directBlocksLeft <= 0 {
            trustsPageCache = true
            directBlocksLeft = 0
        }
    }
}
