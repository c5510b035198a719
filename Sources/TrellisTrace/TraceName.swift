import TrellisModel

/// A controller's name interned in one `TraceRecorder`: what the router's hot recording paths
/// pass instead of a `ControllerID`, so recording an event copies a number, not a string.
///
/// Get one with `TraceRecorder.intern(_:)`; it is only meaningful to the recorder that made it.
public struct TraceName: Sendable, Hashable {
    /// The position of the name in its recorder's table.
    let index: UInt32

    /// The position of the name in its recorder's table: names are numbered densely from 0, so
    /// a table of something per controller can be an array.
    public var position: Int { Int(index) }
}
