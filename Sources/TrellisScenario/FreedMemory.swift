#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory of a large scenario's JSON tree back to the system while the tree is taken
/// apart. glibc keeps freed small blocks (a leaf's one-member object is 96 bytes) in its free
/// lists, so the resident size stayed that of the whole tree while the specs, allocated apart,
/// grew on top: about 90 MB of a million-leaf file's peak (issue 27 item 5). Elsewhere
/// (Darwin, Musl) nothing is done.
enum FreedMemory {
    /// How many controllers are read between two releases: a release walks the free lists and
    /// the pages it returns are faulted in again by the next allocations, so a file of fewer
    /// (100k controllers) makes none, and a million controllers make seven and one at the end
    /// (each holds back at most 12 MB of freed tree).
    static let interval = 1 << 17

    /// Returns the free memory of the process's heap to the system.
    static func release() {
        #if canImport(Glibc)
        // `malloc_trim` is glibc's own (malloc.h), which the Glibc module does not bring in:
        // looked up in the process, as the C library exports it. Its C type is
        // `int malloc_trim(size_t pad)`, which the cast below states.
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
        #endif
    }
}
