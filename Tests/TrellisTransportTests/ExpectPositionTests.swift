import Testing
import TrellisDistributed
import TrellisScenario

/// Issue 24: a failed `expect` names `FILE:LINE:COLUMN` of its step (SPEC §5: every other
/// scenario error does), in an in-process run and in a distributed one alike.
@Suite struct ExpectPositionTests {
    static let text = """
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": { "R": { "children": ["A"] }, "A": {} },
          "placement": { "A": "b" },
          "steps": [
            { "resizeWindow": [568, 320] },
              { "expect": ["A viewWillTransition(to: 999x999)"] }
          ] }
        """

    @Test("an expect failure starts with the file, the line and the column of the expect step")
    func failureNamesItsPlace() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "wrong.json")
        let inProcess = try await ScenarioRunner.run(scenario)
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: loopbackOptions())
        for run in [inProcess, distributed] {
            let failure = try #require(run.failures.first)
            #expect(failure.position == SourcePosition(line: 6, column: 7))
            #expect(failure.description.hasPrefix("wrong.json:6:7: expect at step 2 ($.steps[1]) failed for step 1"), "\(failure)")
        }
    }

    @Test("a YAML scenario's expect failure names its line and column too")
    func yamlFailureNamesItsPlace() async throws {
        let yaml = """
            window: { size: [320, 568] }
            root: R
            controllers: { R: { children: [A] }, A: {} }
            steps:
              - resizeWindow: [568, 320]
              - expect: ["A viewWillTransition(to: 999x999)"]
            """
        let run = try await ScenarioRunner.run(try ScenarioDecoder.decode(yaml, file: "wrong.yaml"))
        let failure = try #require(run.failures.first)
        #expect(failure.description.hasPrefix("wrong.yaml:6:"), "\(failure)")
    }
}
