import TrellisStoryboard

/// The storyboard reader (SPEC §11 "Bad input"): any bytes must be refused with an error or
/// read, never crash, trap or hang. References are looked for beside a file that is not there,
/// so a reference is refused as a missing storyboard rather than read from disk.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoryboard(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let imported = try? StoryboardImport.read(bytes: bytes, file: "/nonexistent-trellis-fuzz/Fuzz.storyboard") {
        _ = imported.document.text()
    }
    _ = try? StoryboardImport.read(bytes: bytes, file: "/nonexistent-trellis-fuzz/Fuzz.storyboard",
                                   options: StoryboardImportOptions(window: .suppliedByScenario, root: .suppliedByScenario))
    return 0
}
