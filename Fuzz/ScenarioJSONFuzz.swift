import TrellisScenario

/// The scenario decoder (JSON): decoding and validation must refuse bad input with an error,
/// never crash, trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let text = FuzzInput.text(data, size) else { return 0 }
    _ = try? ScenarioDecoder.decode(text, file: "fuzz.json")
    return 0
}
