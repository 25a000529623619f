import Foundation
import Synchronization

/// Runs blocking work (libarchive, big file reads) on a thread of its own, off Swift's cooperative pool, and
/// lets it see task cancellation.
///
/// The work runs on a plain thread, where `Task.isCancelled` is always false, so it receives a
/// ``CancellationFlag`` to poll between units of work instead.
public enum BlockingWork {
    /// Runs `work` on a new thread and returns its result. Cancelling the calling task sets the flag; the work
    /// decides where it can stop (typically throwing `CancellationError`).
    public static func run<T: Sendable>(_ work: @escaping @Sendable (CancellationFlag) throws -> T) async throws -> T {
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
}
