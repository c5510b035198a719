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

    /// The file's bytes; more than `limit` are refused (a storyboard's reader asks for less).
    public static func read(_ path: String, limit: Int = maximumSize) throws(ReadError) -> [UInt8] {
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
            if count == 0 { return bytes }
            guard bytes.count <= limit else {
                throw ReadError(description: "is larger than \(limit >> 20) MiB")
            }
        }
    }
}

/// `read(2)` under a name `FileBytes.read` does not hide (the C library's module name differs
/// between Linux and Darwin, so it cannot be qualified).
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
