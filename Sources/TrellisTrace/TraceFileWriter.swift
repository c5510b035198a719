import Foundation
import Synchronization

/// Writes capture lines to a file through a buffer, so that recording a run to a file costs a
/// memory copy per event and a write per megabyte.
public final class TraceFileWriter: Sendable {
    private let handle: FileHandle
    private let buffer = Mutex([UInt8]())
    private static let flushThreshold = 1 << 20

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Appends one line (a newline is added).
    public func write(_ line: String) {
        let full: [UInt8]? = buffer.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
            guard bytes.count >= Self.flushThreshold else { return nil }
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
        if let full { handle.write(Data(full)) }
    }

    /// Writes what is buffered and closes the file.
    public func close() {
        let rest = buffer.withLock { bytes -> [UInt8] in
            defer { bytes.removeAll() }
            return bytes
        }
        if !rest.isEmpty { handle.write(Data(rest)) }
        try? handle.close()
    }
}
