import Synchronization

/// The process groups of the child processes that ``ProcessRunner`` is running now.
///
/// Every child runs in a process group of its own; a group is listed from the moment its leader is spawned
/// until ``ProcessRunner/run(_:killGrace:onLine:)`` returns, which after a cancellation is only once the
/// whole group is gone or has been sent SIGKILL. That lets a second Ctrl-C stop everything at once, without
/// waiting for each step's grace period (issue 13).
public enum ProcessGroups {
    private static let live = Mutex<Set<Int32>>([])

    /// The process group ids listed now.
    public static var current: Set<Int32> {
        live.withLock { $0 }
    }

    /// Sends `signal` (for example `SIGKILL`) to every listed process group.
    ///
    /// - Returns: how many groups still had a member to receive it.
    @discardableResult
    public static func killAll(_ signal: Int32) -> Int {
        // Under the lock, so a runner that is finishing waits to unlist its group until the signal is sent.
        live.withLock { groups in
            groups.filter { PlatformProcesses.signalGroup($0, signal) }.count
        }
    }

    static func insert(_ group: Int32) {
        _ = live.withLock { $0.insert(group) }
    }

    static func remove(_ group: Int32) {
        _ = live.withLock { $0.remove(group) }
    }
}
