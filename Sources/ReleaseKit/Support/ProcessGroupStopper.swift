import Foundation
import Synchronization

/// Stops one child's process group when the task running it is cancelled: SIGTERM to the whole group at once,
/// then SIGKILL to the whole group after the grace period unless it has emptied by then.
///
/// The SIGKILL goes to the group even when its leader has already exited and been reaped: a grandchild that
/// ignores SIGTERM must not outlive the step (issue 13). swift-subprocess's own teardown sequence stops at the
/// leader's exit, which is why this exists. A group id is the leader's pid, and the kernel does not reuse it
/// while any member of the group is alive, so signalling the group after the leader is gone reaches only
/// processes the child started; once the group is seen empty it is never signalled again.
final class ProcessGroupStopper: Sendable {
    private struct State {
        var group: Int32?
        /// When SIGKILL is due; set when the stop is requested.
        var deadline: ContinuousClock.Instant?
        /// Set once ``finish()`` is done with the group; nothing signals it after that.
        var finished = false
    }

    private let state = Mutex(State())
    private let grace: TimeInterval

    init(grace: TimeInterval) {
        self.grace = max(0, grace)
    }

    /// Records the spawned child's process group (which ``ProcessGroups/spawned(_:)`` lists); sends SIGTERM at
    /// once if the stop was requested while the child was being spawned.
    func started(group: Int32) {
        state.withLock { state in
            state.group = group
            if state.deadline != nil { PlatformProcesses.signalGroup(group, SIGTERM) }
        }
    }

    /// Sends SIGTERM to the group now and SIGKILL when the grace period ends. Safe to call more than once and
    /// from any thread (it is a task cancellation handler).
    func stop() {
        let requested = state.withLock { state -> Bool in
            guard state.deadline == nil, !state.finished else { return false }
            state.deadline = .now + .seconds(grace)
            if let group = state.group { PlatformProcesses.signalGroup(group, SIGTERM) }
            return true
        }
        guard requested else { return }
        // While the leader is alive the runner is still waiting for it, so SIGKILL needs a timer of its own: on
        // a Dispatch queue, because a cancellation handler cannot await and the cooperative pool may be busy.
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [self] in
            state.withLock { state in
                if !state.finished, let group = state.group { PlatformProcesses.signalGroup(group, SIGKILL) }
            }
        }
    }

    /// Called once the leader has exited and been reaped (or failed to start), from a task that is not
    /// cancelled. Unlists the group; after a stop, first waits until the group is empty or the grace period is
    /// over, and then sends SIGKILL to whatever is left of it.
    ///
    /// - Returns: whether a stop was requested, that is whether the runner must throw `CancellationError`.
    func finish() async -> Bool {
        let (group, deadline) = state.withLock { state in
            if state.deadline == nil { state.finished = true }
            return (state.group, state.deadline)
        }
        guard let deadline else {
            if let group { ProcessGroups.remove(group) }
            return false
        }
        guard let group else {
            state.withLock { $0.finished = true }
            return true
        }
        var emptied = !PlatformProcesses.groupExists(group)
        while !emptied, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            emptied = !PlatformProcesses.groupExists(group)
        }
        state.withLock { state in
            state.finished = true
            if !emptied { PlatformProcesses.signalGroup(group, SIGKILL) }
        }
        ProcessGroups.remove(group)
        return true
    }
}
