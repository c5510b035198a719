#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif

/// Reads a whole file by streaming it — `read(2)` until the end — rather than asking its size
/// first, so that pipes, FIFOs and process substitutions (`<(…)`, `/dev/fd/63`, `/dev/stdin`)
/// read like regular files. Shared by scenario files and trace files.
public enum FileBytes {
    /// Why a file could not be read, worded to follow `<path>: `.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// More than this is refused rather than read: a pipe may never end.
    public static let maximumSize = 1 << 31

    /// What a reader takes besides text. No text format Trellis reads — JSON (RFC 8259 §7), YAML
    /// (1.2 §5.1), XML (1.0 §2.2) — may hold a NUL byte, so a file that does is refused as soon
    /// as one is read, not after reading up to `maximumSize` of it (`/dev/zero`, a binary file
    /// named by mistake).
    public enum Content: Sendable, Equatable {
        /// Any bytes.
        case any
        /// Text: a NUL byte is refused.
        case text
        /// A binary file that starts with these bytes (a compact capture's magic), else text.
        case textUnlessItStartsWith([UInt8])
        /// Text; a file that starts with these bytes is refused as soon as they are read, with
        /// `saying` as the reason (a scenario reader given a compact capture).
        case textRefusingAStart([UInt8], saying: String)
    }

    /// The file's bytes; more than `limit` are refused (a storyboard's reader asks for less),
    /// and a NUL byte as soon as it is read unless `content` takes it.
    public static func read(_ path: String, limit: Int = maximumSize, content: Content = .any) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw ReadError(description: "no such file")
            case EISDIR: throw ReadError(description: "is a directory, not a file")
            default: throw ReadError(description: "cannot be read")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw ReadError(description: "is a directory, not a file")
        }
        var bytes: [UInt8] = []
        var nulls = NullCheck(content)
        let chunk = 1 << 16
        // A regular file says its size: room for all of it (and the read that finds the end) at
        // once. Otherwise the room doubles: reserving only the next chunk each time copied the
        // whole buffer once a chunk — quadratic, 109 s for a 141 MB trace.
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
            bytes.reserveCapacity(min(Int(status.st_size), limit) + chunk)
        }
        while true {
            let before = bytes.count
            if bytes.capacity < before + chunk {
                bytes.reserveCapacity(max(before + chunk, bytes.capacity * 2))
            }
            var failed = false
            var count = 0
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { failed = true; return }
                repeat {
                    count = readDescriptor(descriptor, base + before, chunk)
                } while count < 0 && errno == EINTR
                failed = count < 0
            }
            bytes.removeLast(chunk - max(count, 0))
            if failed {
                throw ReadError(description: errno == EISDIR ? "is a directory, not a file" : "cannot be read")
            }
            if let refusal = nulls.refusedStart(of: bytes, ended: count == 0) {
                throw ReadError(description: refusal)
            }
            if let offset = nulls.firstNull(in: bytes, ended: count == 0) {
                throw ReadError(description: "holds a NUL byte (byte \(offset + 1)): it is not a text file")
            }
            if count == 0 { return bytes }
            guard bytes.count <= limit else {
                throw ReadError(description: "is larger than \(limit >> 20) MiB")
            }
        }
    }
}

/// Where the first NUL byte of what was read so far is, for `FileBytes.Content`: each byte is
/// looked at once, as it arrives.
private struct NullCheck {
    /// The bytes before this were looked at (or need not be).
    private var checkedUpTo = 0
    /// Whether NUL bytes are refused; nil: not known until the file's first bytes are.
    private var refuses: Bool?
    private let magic: [UInt8]
    /// A start that refuses the file, with its reason; nil once the start was looked at.
    private var refusedStart: (bytes: [UInt8], reason: String)?

    init(_ content: FileBytes.Content) {
        switch content {
        case .any: refuses = false; magic = []
        case .text: refuses = true; magic = []
        case let .textUnlessItStartsWith(prefix): refuses = nil; magic = prefix
        case let .textRefusingAStart(prefix, saying: reason): refuses = true; magic = []; refusedStart = (prefix, reason)
        }
    }

    /// The reason the file is refused for how it starts, once enough of it is read to know.
    mutating func refusedStart(of bytes: [UInt8], ended: Bool) -> String? {
        guard let start = refusedStart, bytes.count >= start.bytes.count || ended else { return nil }
        refusedStart = nil
        return bytes.starts(with: start.bytes) ? start.reason : nil
    }

    /// The offset of the first NUL byte in `bytes` that is refused; `ended`: nothing more comes.
    mutating func firstNull(in bytes: [UInt8], ended: Bool) -> Int? {
        if refuses == nil, bytes.count >= magic.count || ended {
            refuses = !bytes.starts(with: magic)
        }
        guard refuses == true, checkedUpTo < bytes.count else { return nil }
        defer { checkedUpTo = bytes.count }
        // The C library's `memchr`: vectorized, so a trace of hundreds of megabytes pays little.
        let start = checkedUpTo
        return bytes.withUnsafeBytes { buffer -> Int? in
            guard let base = buffer.baseAddress,
                  let found = memchr(base + start, 0, buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}

/// `read(2)` under a name `FileBytes.read` does not hide (the C library's module name differs
/// between Linux and Darwin, so it cannot be qualified).
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
