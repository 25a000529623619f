import Dispatch
import Foundation
import ReleaseKit
import Synchronization

/// SIGINT and SIGTERM for the whole process, installed first thing in `main` so that a Ctrl-C in the first
/// milliseconds is handled like any other rather than killing the process by signal.
///
/// Until a command takes over, an interrupt kills the process groups started so far (a `git` reading the
/// branch) and exits with 130.
/// `release run` takes over: the first interrupt stops running steps and runs always-steps, the second stops
/// those too (their process groups included), and the run still writes its summary and report; a third exits
/// at once.
final class Interrupts: Sendable {
    static let shared = Interrupts()

    private struct State {
        var count = 0
        var handler: (@Sendable (Int) -> Void)?
        var sources: [any DispatchSourceSignal] = []
    }

    /// `@unchecked`-free: the dispatch sources are only touched under the lock.
    private let state = Mutex<State>(State())

    private init() {}

    /// Routes SIGINT and SIGTERM to this object. Call once, before anything else runs.
    func install() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            state.sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)  // delivered to the dispatch source instead of killing the process
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { Interrupts.shared.received() }
                source.resume()
                return source
            }
        }
    }

    /// Hands interrupts to `handler`, which gets the interrupt's number (1 for the first, 2 for the second …).
    func handle(_ handler: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Back to the default: the next interrupt exits with 130.
    func reset() {
        state.withLock { $0.handler = nil }
    }

    private func received() {
        let (count, handler) = state.withLock { state -> (Int, (@Sendable (Int) -> Void)?) in
            state.count += 1
            return (state.count, state.handler)
        }
        guard let handler else { Self.exitNow() }
        handler(count)
    }

    /// Kills every process group `release` started (none is left running detached), then exits with 130.
    static func exitNow() -> Never {
        _ = ProcessGroups.killAll(SIGKILL)
        exit(ExitCodes.interrupted)
    }
}
