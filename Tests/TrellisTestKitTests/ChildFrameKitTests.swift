import Testing
import TrellisTestKit

/// SPEC R2a, R61 with the single-controller kit: a container that sets its children's frames in
/// its layout hook, seen at its first layout (`childFrames`) and in a report (`frames`).
@Suite struct ChildFrameKitTests {
    /// Two children side by side, each half the width, set in `viewWillLayoutSubviews`.
    struct Halves: ViewControllerBehavior {
        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            let half = vc.size.width / 2
            vc.setFrame(Rect(x: 0, y: 0, width: half, height: vc.size.height), ofChild: "A")
            vc.setFrame(Rect(x: half, y: 0, width: half, height: vc.size.height), ofChild: "B")
        }
    }

    @Test func theFirstLayoutAndARotationGiveTheFramesTheHookSet() async {
        let vc = await ControllerUnderTest("R", children: ["A", "B"], behavior: Halves(), size: Size(1024, 768))
        #expect(await vc.childFrames == [
            "A": Rect(x: 0, y: 0, width: 512, height: 768), "B": Rect(x: 512, y: 0, width: 512, height: 768),
        ])
        let report = await vc.viewWillTransition(to: Size(768, 1024))
        #expect(report.frames == [
            "A": Rect(x: 0, y: 0, width: 384, height: 1024), "B": Rect(x: 384, y: 0, width: 384, height: 1024),
        ])
        // Each child is told UIKit's default size, then laid out at its frame.
        #expect(report.forwardedSizes == ["A": Size(768, 1024), "B": Size(768, 1024)])
        #expect(report.calls.filter { $0.call == .layout }.map(\.probe) == ["A", "B"])
    }

    @Test func aFrameSetOutsideTheLayoutIsAnError() async {
        struct OnTap: ViewControllerBehavior {
            func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
                vc.setFrame(Rect(x: 0, y: 0, width: 10, height: 10), ofChild: "A")
                return true
            }
        }
        let vc = await ControllerUnderTest("R", children: ["A"], behavior: OnTap(), size: Size(1024, 768))
        let report = await vc.action("tap")
        report.expect(lines: [
            "R action(tap)",
            "R error setFrame: called outside viewWillLayoutSubviews and viewDidLayoutSubviews (a frame is set when the view is laid out)",
        ])
        #expect(report.frames == ["A": Rect(x: 0, y: 0, width: 1024, height: 768)])
    }
}
