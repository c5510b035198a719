import Testing
import TrellisModel
@testable import TrellisRuntime
import TrellisTrace

/// A transition coordinator keeps its window's registrar by number, not by reference (so that
/// handing one to every controller's hook costs no retain): it must still register with its own
/// window's registrar, and with nobody's once that window is gone.
@Suite("A transition coordinator finds its registrar by number")
struct CoordinatorRegistrarTests {
    @Test("blocks registered through a coordinator run when its transition ends, each traced under its owner")
    func registersWithItsOwnWindow() async {
        let recorder = TraceRecorder()
        let environment = RuntimeEnvironment(recorder: recorder)
        let elsewhere = RuntimeEnvironment(recorder: TraceRecorder())
        let info = environment.beginTransition(animated: true)
        let coordinator = environment.coordinator(for: info, owner: "c")
        #expect(coordinator.registrarNumber == environment.registrar.number)
        #expect(coordinator.registrarNumber != elsewhere.registrar.number)
        let accepted = coordinator.animate(alongsideTransition: { _ in }, completion: { _ in })
        #expect(accepted)
        await environment.finishTransition(info, cause: nil)
        #expect(recorder.events.map(\.controller) == ["c", "c"])
        #expect(recorder.events.map(\.message) == [.alongsideTransition(transition: info.id), .transitionCompletion(transition: info.id)])
        // The other window ran nothing.
        #expect(elsewhere.recorder.recordedCount == 0)
    }

    @Test("a coordinator kept past its window's life registers nothing and says so")
    func windowGone() {
        var kept: TransitionCoordinator?
        do {
            let environment = RuntimeEnvironment(recorder: TraceRecorder())
            kept = environment.coordinator(for: environment.beginTransition(animated: true), owner: "c")
            #expect(CoordinatorRegistrar.registrar(numbered: environment.registrar.number) === environment.registrar)
        }
        #expect(kept.map { CoordinatorRegistrar.registrar(numbered: $0.registrarNumber) == nil } == true)
        let accepted = kept?.animate(alongsideTransition: { _ in }, completion: nil)
        #expect(accepted == false)
    }
}
