import Foundation
import Synchronization

/// The process groups of the child processes that ``ProcessRunner`` is running now.
///
/// Every child runs in a process group of its own; a group is listed from the moment its leader is spawned
/// until ``ProcessRunner/run(_:killGrace:onLine:)`` returns, which after a cancellation is only once the
/// whole group is gone or has been sent SIGKILL. That lets a second Ctrl-C stop everything at once, without
/// waiting for each step's grace period (issue 13).
package enum ProcessGroups {
    private struct State {
        var groups: Set<Int32> = []
        /// Spawns under way whose group is not listed yet: the child may run before its parent hears its pid.
        var spawning = 0
    }

    private static let live = Mutex(State())
    /// Told after every change of the list (``CheckoutLock`` records it, so a run after a `kill -9` of this one can
    /// stop the children it left).
    private static let observer = Mutex<(@Sendable () -> Void)?>(nil)

    /// The environment variable every child gets while this process holds a checkout's lock: its value names this
    /// process and the lock (``childMarker``), so a later run stops only groups this run started.
    package static let markerName = "RELEASE_RUN_LOCK"
    private static let currentMarker = Mutex<String?>(nil)

    /// The value of ``markerName`` for children spawned from now on (`PID:LOCK-PATH`); nil for none.
    package static var childMarker: String? {
        get { currentMarker.withLock { $0 } }
        set { currentMarker.withLock { $0 = newValue } }
    }

    /// The marker a run with pid `pid` holding the lock at `lockPath` gives its children.
    package static func marker(pid: Int32, lockPath: String) -> String {
        "\(pid):\(lockPath)"
    }

    /// Whether process group `group`'s leader is still the child a run marked with `marker`, started at `startTime`
    /// (``PlatformProcesses/startTime(of:)``): a reused id, or a process no `release` of this checkout started, is not.
    package static func isChild(_ group: Int32, startedAt startTime: UInt64?, marker: String) -> Bool {
        guard group > 1, let startTime, PlatformProcesses.startTime(of: group) == startTime,
            let environment = PlatformProcesses.environment(of: group)
        else { return false }
        return environment.contains(markerName + "=" + marker)
    }

    /// The process group ids listed now.
    package static var current: Set<Int32> {
        live.withLock { $0.groups }
    }

    /// Sends `signal` (for example `SIGKILL`) to every listed process group. A child being spawned at that moment
    /// (already running, its group not listed yet) is waited for, up to two seconds, and signalled too: otherwise
    /// an interrupt in that window would leave it behind.
    ///
    /// - Returns: how many groups still had a member to receive it.
    @discardableResult
    package static func killAll(_ signal: Int32) -> Int {
        var signalled: Set<Int32> = []
        var count = 0
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            // Under the lock, so a runner that is finishing waits to unlist its group until the signal is sent.
            let spawning = live.withLock { state -> Int in
                for group in state.groups where !signalled.contains(group) {
                    signalled.insert(group)
                    if PlatformProcesses.signalGroup(group, signal) { count += 1 }
                }
                return state.spawning
            }
            guard spawning > 0, ContinuousClock.now < deadline else { return count }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Calls `body` after every change of the list from now on (nil: no longer). One observer at a time.
    package static func observe(_ body: (@Sendable () -> Void)?) {
        observer.withLock { $0 = body }
    }

    private static func changed() {
        observer.withLock { $0 }?()
    }

    /// Stops a process group this process did not start (a child of a run that was killed): SIGTERM, then SIGKILL
    /// when it has not emptied within `grace` seconds.
    /// - Returns: false when the group had no member left to stop.
    package static func stopOrphan(_ group: Int32, grace: TimeInterval) async -> Bool {
        guard PlatformProcesses.signalGroup(group, SIGTERM) else { return false }
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, grace) * 1000))
        while PlatformProcesses.groupExists(group), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        PlatformProcesses.signalGroup(group, SIGKILL)
        return true
    }

    /// A spawn is about to start; ``spawned(_:)`` or ``spawnFailed()`` ends it.
    static func willSpawn() {
        live.withLock { $0.spawning += 1 }
    }

    /// The spawn finished and its child leads `group`: listed until ``remove(_:)``.
    static func spawned(_ group: Int32) {
        live.withLock { state in
            state.groups.insert(group)
            state.spawning = max(0, state.spawning - 1)
        }
        changed()
    }

    /// The spawn failed: no group to list.
    static func spawnFailed() {
        live.withLock { $0.spawning = max(0, $0.spawning - 1) }
    }

    static func remove(_ group: Int32) {
        _ = live.withLock { $0.groups.remove(group) }
        changed()
    }
}
