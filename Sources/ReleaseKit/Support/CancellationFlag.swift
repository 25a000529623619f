import Foundation
import Synchronization

/// A thread-safe "stop now" flag for work that runs outside a task.
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    public init() {}

    /// Asks the work to stop.
    public func cancel() { state.store(true, ordering: .relaxed) }

    /// Whether the work should stop.
    public var isCancelled: Bool { state.load(ordering: .relaxed) }
}
