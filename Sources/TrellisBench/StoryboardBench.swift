import Foundation
import TrellisScenario
import TrellisStoryboard

/// `trellis bench`'s storyboard figure (issue #25 "Speed"): importing a storyboard of about a
/// megabyte beside reading the same content as a scenario file, in the same run.
package enum StoryboardBench {
    /// A storyboard of `tabs` tabs, each a navigation controller whose table view's cell shows a
    /// detail scene with a few subviews and a popover segue: the shapes real files repeat.
    package static func storyboard(tabs: Int) -> String {
        var scenes = ""
        var relationships = ""
        for tab in 0..<tabs {
            relationships += "<segue destination=\"nav-\(tab)\" kind=\"relationship\" relationship=\"viewControllers\" id=\"rt-\(tab)\"/>\n"
            scenes += """
                <scene sceneID="sn-\(tab)"><objects>
                <navigationController id="nav-\(tab)" sceneMemberID="viewController">
                <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar-\(tab)"><rect key="frame" x="0.0" y="47" width="390" height="44"/><autoresizingMask key="autoresizingMask"/></navigationBar>
                <connections><segue destination="list-\(tab)" kind="relationship" relationship="rootViewController" id="rr-\(tab)"/></connections>
                </navigationController></objects></scene>
                <scene sceneID="sl-\(tab)"><objects>
                <tableViewController storyboardIdentifier="List\(tab)" id="list-\(tab)" customClass="ListViewController" customModule="Bench" sceneMemberID="viewController">
                <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" alwaysBounceVertical="YES" dataMode="prototypes" style="plain" id="tv-\(tab)">
                <rect key="frame" x="0.0" y="0.0" width="390" height="844"/><autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                <prototypes><tableViewCell contentMode="scaleToFill" reuseIdentifier="Cell" id="cell-\(tab)"><rect key="frame" x="0.0" y="50" width="390" height="44"/>
                <connections><segue destination="detail-\(tab)" kind="show" identifier="show\(tab)" id="sg-\(tab)"/></connections></tableViewCell></prototypes>
                </tableView></tableViewController></objects></scene>
                <scene sceneID="sd-\(tab)"><objects>
                <viewController id="detail-\(tab)" customClass="DetailViewController" customModule="Bench" sceneMemberID="viewController">
                <view key="view" contentMode="scaleToFill" id="dv-\(tab)"><rect key="frame" x="0.0" y="0.0" width="390" height="844"/>
                <subviews>\(subviews(tab))</subviews></view></viewController></objects></scene>
                <scene sceneID="sp-\(tab)"><objects>
                <viewController id="pop-\(tab)" sceneMemberID="viewController"><view key="view" contentMode="scaleToFill" id="pv-\(tab)"><rect key="frame" x="0.0" y="0.0" width="320" height="400"/></view>
                <value key="contentSizeForViewInPopover" type="size" width="320" height="400"/></viewController></objects></scene>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" initialViewController="tabs">
            <device id="retina6_0" orientation="portrait" appearance="light"/>
            <scenes>
            <scene sceneID="st"><objects><tabBarController id="tabs" sceneMemberID="viewController"><connections>
            \(relationships)</connections></tabBarController></objects></scene>
            \(scenes)</scenes>
            </document>
            """
    }

    /// A detail scene's views: labels in a stack, and a button whose popover segue is anchored on it.
    static func subviews(_ tab: Int) -> String {
        var views = "<stackView opaque=\"NO\" contentMode=\"scaleToFill\" axis=\"vertical\" id=\"st-\(tab)\"><rect key=\"frame\" x=\"20\" y=\"100\" width=\"350\" height=\"400\"/><subviews>"
        for label in 0..<8 {
            views += "<label opaque=\"NO\" contentMode=\"left\" text=\"Field \(label)\" id=\"lb-\(tab)-\(label)\"><rect key=\"frame\" x=\"0.0\" y=\"\(label * 44)\" width=\"350\" height=\"40\"/><fontDescription key=\"fontDescription\" type=\"system\" pointSize=\"17\"/></label>"
        }
        views += "</subviews></stackView>"
        views += "<button opaque=\"NO\" contentMode=\"scaleToFill\" buttonType=\"system\" id=\"bt-\(tab)\"><rect key=\"frame\" x=\"20\" y=\"520\" width=\"120\" height=\"44\"/>"
        views += "<connections><segue destination=\"pop-\(tab)\" kind=\"popoverPresentation\" identifier=\"pop\(tab)\" popoverAnchorView=\"bt-\(tab)\" id=\"sp-\(tab)\"/></connections></button>"
        return views
    }

    /// Seconds (best of `rounds`) to read the storyboard into a scenario — the XML read, mapped,
    /// then decoded and validated through a scenario's `"storyboard"` field — beside reading the
    /// same scenario from its JSON file, and the storyboard's size in bytes.
    package static func importSeconds(targetBytes: Int, rounds: Int) throws -> (storyboard: Double, scenario: Double, bytes: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-storyboard-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let perTab = storyboard(tabs: 1).utf8.count
        let xml = storyboard(tabs: max(1, targetBytes / perTab))
        let storyboardPath = folder.appendingPathComponent("Bench.storyboard").path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: storyboardPath))
        let fieldPath = folder.appendingPathComponent("field.json").path
        try Data(#"{ "storyboard": "Bench.storyboard" }"#.utf8).write(to: URL(fileURLWithPath: fieldPath))
        let scenarioPath = folder.appendingPathComponent("same.json").path
        try Data(try StoryboardImport.read(path: storyboardPath).document.text().utf8).write(to: URL(fileURLWithPath: scenarioPath))
        var storyboardBest = Double.infinity
        var scenarioBest = Double.infinity
        for _ in 0..<rounds {
            var start = ContinuousClock.now
            _ = try ScenarioDecoder.load(path: fieldPath)
            storyboardBest = min(storyboardBest, seconds(since: start))
            start = ContinuousClock.now
            _ = try ScenarioDecoder.load(path: scenarioPath)
            scenarioBest = min(scenarioBest, seconds(since: start))
        }
        return (storyboardBest, scenarioBest, xml.utf8.count)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
