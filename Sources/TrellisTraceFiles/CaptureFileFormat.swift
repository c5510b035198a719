/// The two forms of a capture file (`Protocols/trace-format.md`, `Protocols/compact-trace-format.md`):
/// JSON Lines, and the compact binary capture. Readers tell them apart by their first bytes,
/// writers choose by the file's name.
public enum CaptureFileFormat: String, Sendable, CaseIterable {
    /// One JSON object per line.
    case jsonLines
    /// The compact binary capture.
    case compact

    /// The extension `trellis` gives compact captures (any name not ending in `.jsonl` gets the
    /// compact form; this one says so).
    public static let compactExtension = "trellis"

    /// The form a file named `path` is written in: JSON Lines for a name ending in `.jsonl`,
    /// the compact capture for any other.
    public static func forPath(_ path: String) -> CaptureFileFormat {
        path.lowercased().hasSuffix(".jsonl") ? .jsonLines : .compact
    }

    /// The form of a file whose content starts with `bytes`: compact when it starts with the
    /// compact capture's magic bytes, JSON Lines otherwise.
    public static func detect(_ bytes: some Collection<UInt8>) -> CaptureFileFormat {
        bytes.starts(with: CompactCaptureFormat.magic) ? .compact : .jsonLines
    }
}
