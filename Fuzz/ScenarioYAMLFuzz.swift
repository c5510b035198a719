import TrellisScenario

/// The YAML path of the scenario decoder, and its rewriting as JSON for other nodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let text = FuzzInput.text(data, size) else { return 0 }
    _ = try? ScenarioDecoder.decode(text, file: "fuzz.yaml")
    if let json = try? ScenarioDecoder.jsonText(text, file: "fuzz.yaml") {
        _ = try? ScenarioDecoder.decode(json, file: "fuzz.json")
    }
    return 0
}
