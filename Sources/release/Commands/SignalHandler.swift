import Dispatch
import Foundation

/// SIGINT/SIGTERM handling for `release run`: the first signal calls `onInterrupt` (the engine stops steps and
/// runs always-steps), a second one exits with 130 at once.
final class SignalHandler {
    private let sources: [any DispatchSourceSignal]

    init(onInterrupt: @escaping @Sendable () -> Void) {
        let counter = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if counter.increment() == 1 {
                    onInterrupt()
                } else {
                    exit(130)
                }
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }

    private final class Counter: @unchecked Sendable {
        // Guarded by `lock`; signal handlers run on a global queue.
        private let lock = NSLock()
        private var count = 0
        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }
}
