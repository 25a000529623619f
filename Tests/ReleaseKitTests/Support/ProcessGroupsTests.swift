import Foundation
import Synchronization
import Testing

@testable import ReleaseSupport

@Suite struct ProcessGroupsTests {
    final class Lines: Sendable {
        let storage = Mutex<[String]>([])
        func add(_ line: String, _ stream: OutputStreamKind) { storage.withLock { $0.append(line) } }
        var all: [String] { storage.withLock { $0 } }
    }

    /// A child already running whose parent has not listed its group yet (the window between spawn and the runner
    /// hearing the pid) is waited for: an interrupt then would otherwise leave it behind.
    @Test func killAllWaitsForASpawnInFlightToBeListed() throws {
        let group = Int32.max - 7  // no such group: the harmless SIGCONT below reaches nobody there
        ProcessGroups.willSpawn()
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            ProcessGroups.spawned(group)
        }
        thread.start()
        _ = ProcessGroups.killAll(SIGCONT)
        #expect(ProcessGroups.current.contains(group), "killAll returned before the spawn in flight was listed")
        ProcessGroups.remove(group)
    }

    @Test func killAllSignalsTheGroupOfEveryRunningChildAndARunnerUnlistsItsGroup() async throws {
        // SIGWINCH, whose default action is to do nothing, so that the children of tests running in parallel
        // are not disturbed; this child traps it and exits. Its background subshell shares its group and must get it too.
        let lines = Lines()
        let script = "trap 'wait; echo got it; exit 3' WINCH; (trap 'echo sleeper got it; exit 0' WINCH; echo $$ >&2; while :; do sleep 0.1; done) & echo $$; wait"
        let request = ProcessRequest(arguments: ["sh", "-c", script], directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let task = Task { try await ProcessRunner.run(request, onLine: lines.add) }
        let deadline = Date().addingTimeInterval(60)  // see ProcessRunnerTests.waitUntil
        while lines.all.count < 2 {
            try #require(Date() < deadline)
            try await Task.sleep(for: .milliseconds(20))
        }
        let group = try #require(lines.all.compactMap { Int32($0) }.first)
        #expect(ProcessGroups.current.contains(group))
        #expect(ProcessGroups.killAll(SIGWINCH) >= 1)
        let result = try await task.value
        #expect(result.status == 3)
        #expect(Set(lines.all.filter { Int32($0) == nil }) == ["got it", "sleeper got it"])
        #expect(!ProcessGroups.current.contains(group))
    }
}
