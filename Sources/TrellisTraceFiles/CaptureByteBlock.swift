import Synchronization

/// Page-aligned bytes that a file writer's encoder has handed over to be written: the encoder
/// trades its storage for a block's (`CaptureByteBuffer.trade`) instead of copying its bytes
/// out, and the block goes to the writing queue inside a `Mutex`.
///
/// The block owns the memory at `address` (it frees it) and has one owner at a time (it cannot
/// be copied; the `Mutex` passes it from queue to queue). The storage is named by its address as
/// a number because a pointer cannot cross between the encoder's lock and the block's: the
/// region checker sees the encoder's pointer and the block's as one region once they trade, and
/// refuses it, though after the trade neither side keeps the other's (the 2 MB copy this
/// replaces cost the writer's thread a sixth of its time, issue 27 item 8).
struct CaptureByteBlock: ~Copyable, Sendable {
    /// The storage: `capacity` bytes allocated by `CaptureByteBuffer.allocate`.
    private(set) var address: UInt
    private(set) var capacity: Int
    /// The bytes handed over, from the start.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        address = UInt(bitPattern: CaptureByteBuffer.allocate(capacity))
    }

    deinit {
        UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
    }

    /// The bytes handed over.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
    }

    /// Takes `storage` (of `capacity` bytes, `count` of them written) and gives its own.
    mutating func trade(_ storage: UnsafeMutablePointer<UInt8>, capacity: Int, count: Int) -> (storage: UnsafeMutablePointer<UInt8>, capacity: Int)? {
        guard let own = UnsafeMutablePointer<UInt8>(bitPattern: address) else { return nil }
        let ownCapacity = self.capacity
        address = UInt(bitPattern: storage)
        self.capacity = capacity
        self.count = count
        return (own, ownCapacity)
    }
}

/// A block in flight between a file writer's two queues, and back to its spares.
final class CaptureHandOver: Sendable {
    let block: Mutex<CaptureByteBlock>

    init(capacity: Int) {
        block = Mutex(CaptureByteBlock(capacity: capacity))
    }
}
