import Foundation
import Synchronization

/// A thread-safe "stop now" flag for work that runs outside a task.
package final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    package init() {}

    /// Asks the work to stop.
    package func cancel() { state.store(true, ordering: .relaxed) }

    /// Whether the work should stop.
    package var isCancelled: Bool { state.load(ordering: .relaxed) }
}
