import Foundation
import Synchronization

/// Runs blocking work (libarchive, big file reads) on a thread of its own, off Swift's cooperative pool, and
/// lets it see task cancellation.
///
/// The work runs on a plain thread, where `Task.isCancelled` is always false, so it receives a
/// ``CancellationFlag`` to poll between units of work instead.
package enum BlockingWork {
    /// Runs `work` on a new thread and returns its result. Cancelling the calling task sets the flag; the work
    /// decides where it can stop (typically throwing `CancellationError`).
    package static func run<T: Sendable>(_ work: @escaping @Sendable (CancellationFlag) throws -> T) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: Result { try work(flag) })
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Runs `work` on a new thread with a `stackSize`-byte stack and waits for it: for a library that recurses as
    /// deep as its own limit allows (libyaml: 1,000 levels) where the caller's thread may have as little as
    /// Darwin's 512 KiB.
    package static func waitingOnStack<T: Sendable>(of stackSize: Int, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw InternalError("a thread ended without a result") }
        return try outcome.get()
    }
}
