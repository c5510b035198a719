import Dispatch
import Foundation

/// Signal sources that are listening once `make` returns: a signal sent after that reaches
/// `handle`, never lost. A source listens only once libdispatch has registered it — on its
/// manager thread, some time after `resume()` —, and on Linux it is that registration which
/// installs the handler feeding its signalfd: a signal ignored meanwhile (`SIG_IGN`, as Darwin's
/// kqueue needs) was dropped by the kernel, and the program went on as if never signalled
/// (a conductor signalled as it began to listen, on a loaded machine, ran its whole scenario
/// silent). Before the registration, the signal's default action stands: it ends the
/// program, as a signal before `make` does.
enum SignalSources {
    static func make(_ numbers: [Int32], handle: @escaping @Sendable (Int32) -> Void) async -> [DispatchSourceSignal] {
        var sources: [DispatchSourceSignal] = []
        for number in numbers {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handle(number) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler {
                    #if !os(Linux)
                    // kqueue sees the signal whatever its disposition; ignored, it no longer ends
                    // the program — from the moment the source listens, not a hop later. On Linux
                    // libdispatch's own handler replaced the disposition: ignoring the signal
                    // now would drop it.
                    signal(number, SIG_IGN)
                    #endif
                    registered.resume()
                }
                source.resume()
            }
            sources.append(source)
        }
        return sources
    }
}
