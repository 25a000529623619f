import Foundation

/// The process's entry point: installs interrupt handling before anything else runs, then runs ``Release``.
///
/// A synchronous `main`, because an `async` one starts the concurrency runtime (and its threads) before its first
/// line: a signal arriving then killed the process by signal or reached a thread that dropped it. Here the
/// interrupt signals are blocked before any other thread exists (``Interrupts/install()``).
@main
enum Entry {
    static func main() {
        Interrupts.shared.install()
        // Detached: `main` is on the main actor, which a task started with `Task` would inherit, and nothing serves
        // the main actor here. `Release.main` is not isolated to it and ran on the cooperative pool already.
        Task.detached {
            await Release.main()
            exit(0)
        }
        // The main thread only waits: the task ends the process with `exit`. Not `dispatchMain()`, which serves the
        // main queue but ends the main thread with `pthread_exit`, whose forced unwind looks up every frame in the
        // binary's unwind tables (`.eh_frame_hdr`, `.eh_frame`) and so kept 0.8 MB of them resident in every
        // command. Nothing of ours runs on the main queue or the main actor. A signal that lands on this thread is
        // handled as on any other (``Interrupts``: the handler writes to a pipe); `pause` then returns.
        while true { pause() }
    }
}
