import Foundation
import Testing
import TrellisTestSupport

/// SPEC §11, §8: `trellis run` of scenarios that perform segues — `expect` steps naming the
/// copies pass in-process and over ZeroMQ with the same trace, and a bad segue exits 2 with the
/// file, line, column and JSON path before anything runs.
@Suite("segues on the command line")
struct SegueCommandTests {
    func scenarioFile(_ text: String) throws -> String {
        let url = try scratchDirectory().appendingPathComponent("segues.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let scenario = """
        { \(Pad.window),
          "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["MN", "DN"] },
            "MN": { "kind": "navigation", "children": ["Master"] }, "Master": { "kind": "view" },
            "DN": { "kind": "navigation", "children": ["Detail"] }, "Detail": { "kind": "view" },
            "Info": { "kind": "view" }
          },
          "segues": {
            "showDetail": { "kind": "showDetail", "from": "Master", "destination": "DN" },
            "info": { "kind": "presentation", "from": "Detail", "destination": "Info", "style": "formSheet" },
            "done": { "kind": "unwind", "from": "Info" }
          },
          "placement": { "MN": "b", "DN": "c" },
          "steps": [
            { "performSegue": "showDetail" },
            { "expect": ["Master showDetail(DN~1)", "S replaceDetail(DN~1)"] },
            { "performSegue": "info" },
            { "expect": ["S present(Info~1, style: formSheet)", "Detail~1 presentCompletion(Info~1)"] },
            { "performSegue": "done" },
            { "expect": ["S dismiss(Info~1)", "S dismissCompletion(Info~1)"] }
          ]
        }
        """

    @Test("expect steps on the copies pass in-process and over ZeroMQ, with the same trace")
    func runsBothWays() async throws {
        let path = try scenarioFile(Self.scenario)
        let inProcess = try await runTrellis(["run", path])
        #expect(inProcess.status == 0, "stderr: \(inProcess.stderr)")
        #expect(inProcess.stdoutLines.contains("== step 3: performSegue info: present Info~1 from Detail~1"))
        let zmq = try await runTrellis(["run", path, "--transport", "zmq"])
        #expect(zmq.status == 0, "stderr: \(zmq.stderr)")
        #expect(zmq.stdoutLines == inProcess.stdoutLines)
    }

    @Test("a custom segue exits 2 naming its class, at FILE:LINE:COLUMN and the step's path, and runs nothing")
    func customSegueExits2() async throws {
        let path = try scenarioFile(Self.scenario.replacingOccurrences(
            of: #""done": { "kind": "unwind", "from": "Info" }"#,
            with: #""done": { "kind": "custom", "from": "Info", "destination": "Master", "customClass": "DismissSegue" }"#))
        let outcome = try await runTrellis(["run", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(path):21:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("$.steps[4].performSegue"))
        #expect(outcome.stderr.contains("\"DismissSegue\""))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("validate: a segue to an unknown controller exits 2 at $.segues.ID.destination")
    func unknownDestination() async throws {
        let path = try scenarioFile(Self.scenario.replacingOccurrences(of: #""destination": "Info""#, with: #""destination": "Infp""#))
        let outcome = try await runTrellis(["validate", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("$.segues.info.destination"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("unknown controller \"Infp\""))
    }
}
