import Foundation
import Testing
import TrellisTestSupport

/// SPEC §11: `trellis import FILE.storyboard` prints a scenario `trellis run` accepts as it is,
/// notices only on standard error, exit 2 for bad input and bad flags.
@Suite("trellis import")
struct ImportCommandTests {
    static let folder = "Tests/TrellisStoryboardTests/Storyboards/"

    /// The printed scenario's JSON object.
    func object(_ outcome: ProcessOutcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    }

    @Test("prints JSON on standard output and notices on standard error; the output runs as it is")
    func importAndRun() async throws {
        let outcome = try await runTrellis(["import", Self.folder + "MasterDetail.storyboard"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let scenario = try object(outcome)
        #expect(scenario["root"] as? String == "splitViewController1")
        #expect((scenario["segues"] as? [String: Any])?.keys.sorted() == ["showDetail", "showPinned"])
        let notices = outcome.stderr.split(separator: "\n")
        #expect(notices == ["notice: custom classes without a registered behaviour get the default one: DetailViewController, MasterViewController"])
        let file = try scratchDirectory().appendingPathComponent("imported.json")
        try Data(outcome.stdout.utf8).write(to: file)
        let run = try await runTrellis(["run", file.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdoutLines.contains { $0.contains("splitViewController1") })
    }

    @Test("a storyboard of Xcode 11 or later that presents is imported with a notice to name the ios13 profile (not with --segues)")
    func profileNotice() async throws {
        let outcome = try await runTrellis(["import", Self.folder + "Popovers.storyboard"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(try object(outcome)["profile"] == nil)
        #expect(outcome.stderr.contains("notice: \(Self.folder)Popovers.storyboard was saved by Xcode 11 or later (toolsVersion 21701)"), "\(outcome.stderr)")
        let listing = try await runTrellis(["import", Self.folder + "Popovers.storyboard", "--segues"])
        #expect(listing.status == 0)
        #expect(!listing.stderr.contains("profile"))
    }

    @Test("--segues lists each segue: id, kind, source and destination")
    func segues() async throws {
        let outcome = try await runTrellis(["import", Self.folder + "Popovers.storyboard", "--segues"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdoutLines == [
            "showBrushes popoverPresentation CanvasViewController -> BrushPickerViewController",
            "export presentation CanvasViewController -> ExportViewController",
            "showLayers popoverPresentation CanvasViewController -> LayersViewController",
            "ExportViewController-unwind-exit unwind ExportViewController -> (run time)",
        ])
    }

    @Test("--device and --orientation choose the window; --window gives a size")
    func window() async throws {
        let pad = try object(try await runTrellis(["import", Self.folder + "Tabs.storyboard", "--device", "ipad11", "--orientation", "landscape"]))
        let padWindow = try #require(pad["window"] as? [String: Any])
        #expect(padWindow["size"] as? [Double] == [1194, 834])
        #expect((padWindow["traits"] as? [String: Any])?["userInterfaceIdiom"] as? String == "pad")
        let phone = try object(try await runTrellis(["import", Self.folder + "Tabs.storyboard", "--orientation", "landscape"]))
        let traits = try #require((phone["window"] as? [String: Any])?["traits"] as? [String: Any])
        #expect(traits["horizontalSizeClass"] as? String == "compact")
        #expect(traits["verticalSizeClass"] as? String == "compact")
        let sized = try object(try await runTrellis(["import", Self.folder + "Tabs.storyboard", "--window", "390x844"]))
        #expect((sized["window"] as? [String: Any])?["size"] as? [Double] == [390, 844])
        let rooted = try object(try await runTrellis(["import", Self.folder + "Settings.storyboard", "--root", "SettingsRoot"]))
        #expect(rooted["root"] as? String == "SettingsRoot")
    }

    @Test("exit 2 with FILE:LINE:COLUMN and the element, or the flag's mistake", arguments: [
        (["import", folder + "ThreeColumn.storyboard"], "ThreeColumn.storyboard:12:17: <splitViewController>: a three-column split"),
        (["import", folder + "Settings.storyboard"], "Settings.storyboard:2:1: <document>: no initialViewController (instantiated from code?): give --root ID, one of: SettingsRoot, About"),
        (["import", folder + "Tabs.storyboard", "--root", "Nope"], "--root Nope is no controller of the storyboard"),
        (["import", folder + "Tabs.storyboard", "--root", "BookList"], "--root BookList is the child of navigationController2: the root is a controller no container holds (candidates: tabBarController1, BookViewController, About, About2)"),
        (["import", folder + "Tabs.storyboard", "--device", "ipad99"], "unknown device id \"ipad99\": give --window WxH, or --device with a known id"),
        (["import", folder + "Tabs.storyboard", "--device", "ipad11", "--window", "10x10"], "--device and --window both give the window"),
        (["import", folder + "Tabs.storyboard", "--window", "wide"], "--window must be WxH"),
        // A value starting with "-" is the option's, named as what it is (not "Missing value").
        (["import", folder + "Tabs.storyboard", "--window", "-5x100"], "--window must be WxH in points (for example 390x844), got \"-5x100\""),
        (["trace", "show", "Examples/iphone-rotation.json", "--step", "-1"], "--step must be N or N-M with 0 ≤ N ≤ M, got \"-1\""),
        (["trace", "export", "Examples/iphone-rotation.json", "--format", "mermaid", "--step", "-1"], "--step must be N or N-M with 0 ≤ N ≤ M, got \"-1\""),
        (["import", folder + "Tabs.storyboard", "--window", "300x400", "--orientation", "landscape"], "--orientation turns a device"),
        (["import", folder + "Nowhere.storyboard"], "Nowhere.storyboard: no such file"),
        (["import", "Package.swift"], "Package.swift:1:1: not well-formed XML"),
        // Refused at its first byte, not after reading the 2 GiB bound (nor ever, as a pipe).
        (["import", "/dev/zero"], "/dev/zero: holds a NUL byte (byte 1): it is not a text file"),
        (["validate", "/dev/zero"], "/dev/zero: holds a NUL byte (byte 1): it is not a text file"),
        (["trace", "show", "/dev/zero"], "/dev/zero: holds a NUL byte (byte 1): it is not a text file"),
    ])
    func refusals(_ arguments: [String], _ message: String) async throws {
        let outcome = try await runTrellis(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains(message), "stderr: \(outcome.stderr)")
    }

    @Test("a runner's behaviour named by a customClass becomes the controller's behaviour, and the plain tool says it has none")
    func runnerBehaviour() async throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" initialViewController="Ro1-aa-v01">
                <device id="retina4_7" orientation="portrait" appearance="light"/>
                <scenes>
                    <scene sceneID="Sc1-aa-s01">
                        <objects>
                            <viewController id="Ro1-aa-v01" customClass="Noting" customModule="App" customModuleProvider="target" sceneMemberID="viewController">
                                <view key="view" contentMode="scaleToFill" id="Vw1-aa-v02">
                                    <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                </view>
                            </viewController>
                        </objects>
                    </scene>
                </scenes>
            </document>
            """
        let folder = try scratchDirectory()
        try Data(xml.utf8).write(to: folder.appendingPathComponent("Main.storyboard"))
        let scenario = #"{ "storyboard": "Main.storyboard", "steps": [ { "resizeWindow": [667, 375] } ] }"#
        try Data(scenario.utf8).write(to: folder.appendingPathComponent("app.json"))
        let runner = try #require(TrellisBinary.testRunnerURL, "no trellis-test-runner built")
        let imported = try await runProcess(runner, ["import", folder.appendingPathComponent("Main.storyboard").path], timeout: .seconds(60))
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        #expect(imported.stdout.contains(#""behavior": "Noting""#))
        #expect(imported.stderr.isEmpty)
        let plain = try await runTrellis(["import", folder.appendingPathComponent("Main.storyboard").path])
        #expect(!plain.stdout.contains("behavior"))
        #expect(plain.stderr.contains("notice: custom classes without a registered behaviour get the default one: Noting"))
        // A scenario naming the storyboard: the runner's Swift code runs; the plain tool's run
        // has the notice on standard error and the default behaviour.
        let byRunner = try await runProcess(runner, ["run", folder.appendingPathComponent("app.json").path], timeout: .seconds(60))
        #expect(byRunner.status == 0, "stderr: \(byRunner.stderr)")
        #expect(byRunner.stdoutLines.contains("Noting note laid out by Swift"))
        let run = try await runTrellis(["run", folder.appendingPathComponent("app.json").path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("notice: custom classes without a registered behaviour"))
        #expect(!run.stdout.contains("note laid out by Swift"))
    }

    @Test("a scenario naming a storyboard, with a placement, gives the in-process trace over ZeroMQ: the nodes get the storyboard read in")
    func distributed() async throws {
        let storyboard = packageRoot.appendingPathComponent(Self.folder + "Tabs.storyboard").path
        let scenario = """
            { "storyboard": "\(storyboard)",
              "placement": { "navigationController2": "b", "navigationController1": "c" },
              "steps": [ { "transition": { "size": [852, 393], "traits": { "verticalSizeClass": "compact" } } },
                         { "performSegue": "showBook" },
                         { "expect": [ "BookList show(BookViewController~1)", "navigationController2 push(BookViewController~1)" ] } ] }
            """
        let file = try scratchDirectory().appendingPathComponent("tabs.json")
        try Data(scenario.utf8).write(to: file)
        let inProcess = try await runTrellis(["run", file.path])
        #expect(inProcess.status == 0, "stderr: \(inProcess.stderr)")
        let overZeroMQ = try await runTrellis(["run", file.path, "--transport", "zmq"], timeout: .seconds(120))
        #expect(overZeroMQ.status == 0, "stderr: \(overZeroMQ.stderr)")
        #expect(overZeroMQ.stdout == inProcess.stdout)
        #expect(inProcess.stdoutLines.contains("navigationController2 push(BookViewController~1)"))
    }

    @Test("a YAML scenario may name a storyboard too")
    func yaml() async throws {
        let storyboard = packageRoot.appendingPathComponent(Self.folder + "MasterDetail.storyboard").path
        let file = try scratchDirectory().appendingPathComponent("md.yaml")
        try Data("storyboard: \(storyboard)\nsteps:\n  - performSegue: showDetail\n".utf8).write(to: file)
        let outcome = try await runTrellis(["run", file.path])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdoutLines.contains("splitViewController1 replaceDetail(navigationController2~1)"))
    }
}
