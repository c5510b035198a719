import Testing

/// The tags of the project's tests, declared once for every suite (Swift Testing): CI and a
/// developer select or skip the expensive ones by them (docs/testing.md, "Selecting tests").
extension Tag {
    /// Starts other processes that talk to the test or to each other — `trellis node`s over
    /// ZeroMQ, `trellis run --transport zmq`, the Python node — rather than staying in this one.
    @Tag public static var multiProcess: Self
    /// Takes seconds on purpose: a timeout waited out, thousands of steps, a differential or
    /// garbage sweep. Everything else runs in well under a second.
    @Tag public static var slow: Self
    /// Builds hosts out of network namespaces (`ip netns`, veth); needs root, skipped otherwise.
    @Tag public static var networkNamespace: Self
}
