/// Messages received and not yet taken, first in first out: an array read from a moving head, so
/// that taking one costs no shifting; emptied, it starts again at the front with its storage.
struct ZMTPMessageQueue {
    private var messages: [[[UInt8]]] = []
    private var head = 0

    var isEmpty: Bool { head == messages.count }
    var count: Int { messages.count - head }

    mutating func append(_ message: [[UInt8]]) {
        messages.append(message)
    }

    mutating func popFirst() -> [[UInt8]]? {
        guard head < messages.count else { return nil }
        let message = messages[head]
        messages[head] = []
        head += 1
        if head == messages.count {
            messages.removeAll(keepingCapacity: messages.capacity <= 1024)
            head = 0
        }
        return message
    }
}
