import Foundation
import ReleaseExecution
import ReleaseSupport
import Synchronization

/// SIGINT, SIGTERM and SIGHUP for the whole process, installed first thing in `main` (``Entry``) so that an
/// interrupt in the first milliseconds is handled like any other rather than lost or killing the process by signal.
///
/// A handler caught on any thread hands the signal to one thread of ours through a pipe (``PlatformSignals``), which
/// calls the command's handler: a signal sent while the process is still starting (or already pending when it
/// starts) is handled like a later one. A SIGHUP that was ignored when `release` started (`nohup release run …`)
/// stays ignored.
///
/// Until a command takes over, an interrupt kills the process groups started so far (a `git` reading the
/// branch) and exits with 130.
/// `release run` takes over: the first interrupt stops running steps and runs always-steps and teardowns, the
/// second stops those too (their process groups included), and the run still writes its summary and report; a
/// third exits at once. A hang-up (SIGHUP: the terminal closed, the SSH connection dropped) is an interrupt like
/// the others, so the key files and keychains a run made are still removed.
final class Interrupts: Sendable {
    static let shared = Interrupts()

    private struct State {
        var installed = false
        var count = 0
        var handler: (@Sendable (_ count: Int, _ signal: Int32) -> Void)?
        /// How many ``holdingOff(_:)`` sections are running; interrupts wait in `held` until the last one ends.
        var holds = 0
        var held: [Int32] = []
        /// An interrupt that no command handles is ending the process (``exitNow()``).
        var exiting = false
    }

    private let state = Mutex<State>(State())

    private init() {}

    /// Catches the interrupt signals and starts the thread that handles them. Call once, first thing in `main`,
    /// before anything else runs.
    func install() {
        let signals = state.withLock { state -> [Int32] in
            guard !state.installed else { return [] }
            state.installed = true
            return PlatformSignals.interrupts.filter { $0 != SIGHUP || !PlatformSignals.isIgnored(SIGHUP) }
        }
        guard !signals.isEmpty else { return }
        guard PlatformSignals.install(signals) else {
            Terminal.writeError("warning: cannot catch interrupts: \(Platform.errorText(Platform.errorNumber))\n")
            return
        }
        // A signal caught before this thread runs waits in the pipe.
        let thread = Thread {
            while true { Interrupts.shared.received(PlatformSignals.next()) }
        }
        thread.name = "release-interrupts"
        thread.start()
    }

    /// Hands interrupts to `handler`, which gets the interrupt's number (1 for the first, 2 for the second …)
    /// and the signal.
    func handle(_ handler: @escaping @Sendable (_ count: Int, _ signal: Int32) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Back to the default: the next interrupt exits with 130.
    func reset() {
        state.withLock { $0.handler = nil }
    }

    /// Runs `body` (a few milliseconds of writes that must not stop halfway) with interrupts held back: one that
    /// arrives meanwhile is handled as soon as `body` returns or throws.
    func holdingOff<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.holds += 1 }
        defer {
            let held = state.withLock { state -> [Int32] in
                state.holds -= 1
                guard state.holds == 0 else { return [] }
                defer { state.held = [] }
                return state.held
            }
            held.forEach(received)
        }
        return try body()
    }

    private func received(_ signal: Int32) {
        let delivery = state.withLock { state -> (Int, (@Sendable (Int, Int32) -> Void)?)? in
            if state.holds > 0 {
                state.held.append(signal)
                return nil
            }
            state.count += 1
            if state.handler == nil { state.exiting = true }
            return (state.count, state.handler)
        }
        guard let (count, handler) = delivery else { return }
        guard let handler else { Self.exitNow() }
        handler(count, signal)
    }

    /// The command's last word before the process exits: when an interrupt no command handled is ending the process,
    /// waits for it to exit with 130. Killing the `git` planning waited on lets the command go on (to a preflight
    /// failure, exit 1) while the interrupt thread still releases the lock; the interrupt must win that race.
    func yieldToAnInterruptExiting() {
        guard state.withLock({ $0.exiting }) else { return }
        while true { pause() }
    }

    /// Kills every process group `release` started (none is left running detached), releases the checkout's lock,
    /// then exits with 130.
    static func exitNow() -> Never {
        _ = ProcessGroups.killAll(SIGKILL)
        CheckoutLock.releaseHeld()
        exit(ExitCodes.interrupted)
    }
}
