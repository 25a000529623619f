import Dispatch
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
        Task {
            await Release.main()
            exit(0)
        }
        dispatchMain()
    }
}
