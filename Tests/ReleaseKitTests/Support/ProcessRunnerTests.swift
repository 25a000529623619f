import Foundation
import ReleaseTestSupport
import Synchronization
import Testing

@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct ProcessRunnerTests {
    final class Lines: Sendable {
        let storage = Mutex<[String]>([])
        func add(_ line: String, _ stream: OutputStreamKind) { storage.withLock { $0.append("\(stream.rawValue): \(line)") } }
        var all: [String] { storage.withLock { $0 } }
    }

    @Test func streamsLinesAndKeepsExitStatus() async throws {
        let lines = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "echo one; echo two >&2; printf three; exit 7"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let result = try await ProcessRunner.run(request, onLine: lines.add)
        #expect(result.status == 7)
        #expect(result.standardOutput == "one\nthree")
        #expect(Set(lines.all) == ["stdout: one", "stderr: two", "stdout: three"])
    }

    @Test func runsInTheRequestedDirectory() async throws {
        let request = ProcessRequest(arguments: ["pwd"], directory: "/usr", environment: ProcessInfo.processInfo.environment)
        let result = try await ProcessRunner.run(request) { _, _ in }
        #expect(result.standardOutput == "/usr\n")
    }

    @Test func unknownCommandIsAClearError() async throws {
        let request = ProcessRequest(arguments: ["no-such-command-xyz"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])
        await #expect(throws: ProcessError.commandNotFound("no-such-command-xyz")) {
            try await ProcessRunner.run(request) { _, _ in }
        }
    }

    @Test func cancellationKillsTheWholeProcessGroup() async throws {
        // The command and its grandchild would run for 10 minutes; cancelling must stop both, whatever the load.
        let lines = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "sleep 600 & echo $!; sleep 600"], directory: "/tmp",
            environment: ProcessInfo.processInfo.environment)
        let task = Task { try await ProcessRunner.run(request, killGrace: 1, onLine: lines.add) }
        try await waitUntil { !lines.all.isEmpty }
        let grandchild = try #require(Int32(lines.all[0].dropFirst("stdout: ".count)))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await waitUntil { !Self.isRunning(grandchild) }
    }

    /// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
    static func isRunning(_ pid: Int32) -> Bool {
        Platform.processIsRunning(pid)
    }

    @Test func aGrandchildThatIgnoresSIGTERMIsKilledWithItsGroupAfterTheLeaderHasGone() async throws {
        // Issue 13: the leader dies on SIGTERM at once; the grandchild ignores SIGTERM and, with its output
        // sent elsewhere, does not keep the pipes open. Only a SIGKILL to the group after the grace stops it:
        // without one it would live for 10 minutes.
        let directory = TestTemporary.root + "/ignores-term-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = "(trap '' TERM; echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 600) >/dev/null 2>&1 & sleep 600"
        let request = ProcessRequest(arguments: ["sh", "-c", script], directory: directory, environment: ProcessInfo.processInfo.environment)
        let task = Task { try await ProcessRunner.run(request, killGrace: 0.5) { _, _ in } }
        try await waitUntil { FileManager.default.fileExists(atPath: directory + "/pid") }
        let grandchild = try #require(Int32(try String(contentsOfFile: directory + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let started = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) >= 0.4, "the grandchild outlived SIGTERM, so the runner waits out the grace period")
        try await waitUntil { !Self.isRunning(grandchild) }
    }

    @Test func cancellationReturnsAsSoonAsTheWholeGroupHasExited() async throws {
        let lines = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "trap 'echo stopping; exit 5' TERM; sleep 600 & echo ready; wait"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let task = Task { try await ProcessRunner.run(request, killGrace: 3600, onLine: lines.add) }
        try await waitUntil { lines.all.contains("stdout: ready") }
        let started = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 600, "nothing is left in the group, so the hour's grace is not waited out")
        #expect(lines.all.contains("stdout: stopping"), "lines printed while the command shuts down are still delivered")
    }

    @Test func linesArriveWhileTheCommandIsStillRunning() async throws {
        let lines = Lines()
        let finished = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "echo first; echo second >&2; sleep 120; echo last"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let task = Task {
            defer { finished.add("finished", .stdout) }
            return try await ProcessRunner.run(request, killGrace: 1, onLine: lines.add)
        }
        try await waitUntil { lines.all.count == 2 }
        #expect(finished.all.isEmpty)
        #expect(Set(lines.all) == ["stdout: first", "stderr: second"])
        task.cancel()
        _ = try? await task.value
        #expect(!lines.all.contains("stdout: last"))
    }

    @Test func theChildIsReapedWhetherItExitsOrIsCancelled() async throws {
        // waitpid: a child still running answers 0, a zombie answers its pid, a reaped one fails with ECHILD.
        func isReaped(_ pid: Int32) -> Bool {
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD
        }
        let environment = ProcessInfo.processInfo.environment
        let exited = try await ProcessRunner.run(ProcessRequest(arguments: ["sh", "-c", "echo $$"], directory: "/tmp", environment: environment)) { _, _ in }
        let exitedPID = try #require(Int32(exited.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isReaped(exitedPID))

        let lines = Lines()
        let request = ProcessRequest(arguments: ["sh", "-c", "echo $$; exec sleep 60"], directory: "/tmp", environment: environment)
        let task = Task { try await ProcessRunner.run(request, killGrace: 1, onLine: lines.add) }
        try await waitUntil { !lines.all.isEmpty }
        let cancelledPID = try #require(Int32(lines.all[0].dropFirst("stdout: ".count)))
        task.cancel()
        _ = try? await task.value
        #expect(isReaped(cancelledPID))
        #expect(!ProcessGroups.current.contains(cancelledPID))
    }

    @Test func theChildGetsDefaultSignalHandlingEvenWhenTheParentIgnoresSignals() async throws {
        // `release` ignores SIGINT and SIGTERM to handle them itself, and SIGPIPE to see EPIPE; ignored signals
        // would otherwise stay ignored across exec.
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        let previousTerm = signal(SIGTERM, SIG_IGN)
        defer {
            signal(SIGPIPE, previousPipe)
            signal(SIGTERM, previousTerm)
        }
        for (name, number) in [("PIPE", SIGPIPE), ("TERM", SIGTERM)] {
            let request = ProcessRequest(
                arguments: ["sh", "-c", "kill -\(name) $$; echo survived"],
                directory: "/tmp", environment: ProcessInfo.processInfo.environment)
            let result = try await ProcessRunner.run(request) { _, _ in }
            #expect(result.signal == number)
            #expect(result.status == 128 + number)
            #expect(result.standardOutput == "")
        }
    }

    @Test func theEnvironmentIsExactlyTheOneGivenAndStandardInputIsEmpty() async throws {
        let env = try await ProcessRunner.run(ProcessRequest(arguments: ["env"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin", "ONLY": "this"])) { _, _ in }
        #expect(Set(env.standardOutput.split(separator: "\n")) == ["PATH=/usr/bin:/bin", "ONLY=this"])
        let cat = try await ProcessRunner.run(ProcessRequest(arguments: ["cat"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])) { _, _ in }
        #expect(cat.status == 0)
        #expect(cat.standardOutput == "")
    }

    @Test func standardInputCarriesTheRequestBytesAndIsThenClosed() async throws {
        // 200 KiB: more than a pipe buffer holds, so the writer and the reader must overlap.
        let input = Array(repeating: UInt8(ascii: "x"), count: 200 * 1024) + Array("\nend\n".utf8)
        let request = ProcessRequest(
            arguments: ["sh", "-c", "wc -c; echo done"], directory: "/tmp",
            environment: ["PATH": "/usr/bin:/bin"], input: input)
        let result = try await ProcessRunner.run(request) { _, _ in }
        #expect(result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == ["\(input.count)", "done"])
    }

    @Test func carriageReturnsBeforeLineBreaksAreDroppedAndOthersKept() async throws {
        let lines = Lines()
        let request = ProcessRequest(arguments: ["printf", "a\\r\\nb\\rc\\n"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])
        let result = try await ProcessRunner.run(request, onLine: lines.add)
        #expect(lines.all == ["stdout: a", "stdout: b\rc"])
        #expect(result.standardOutput == "a\r\nb\rc\n")
    }

    /// The last mebibyte, from the start of a line: the line the limit cuts is left out whole.
    @Test func keepsOnlyTheLastMebibyteOfStandardOutputInWholeLines() async throws {
        let request = ProcessRequest(
            arguments: ["sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' a; echo; echo END"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let lines = Lines()
        let result = try await ProcessRunner.run(request, onLine: lines.add)
        #expect(result.standardOutput == "END\n")
        // The 3 MB line comes in pieces of at most a MiB (LineSplitter), then END.
        #expect(lines.all.count >= 4)
        #expect(lines.all.dropLast().map { $0.utf8.count - "stdout: ".utf8.count }.reduce(0, +) == 3_000_000)
        #expect(lines.all.last == "stdout: END")
    }

    /// A secret the limit cuts would leave its end in the captured output, where masking no longer recognises it.
    @Test func theLineTheCaptureLimitCutsIsLeftOutSoNoPartOfASecretStays() async throws {
        let secret = "ghp_CutAtTheLimitSecretValue0123456789"
        // The secret's line, then one line long enough that the limit falls 20 bytes into the secret.
        let filler = (1 << 20) - (secret.utf8.count - 20) - 2
        let script = "printf '%s\\n' \"$0\"; head -c \(filler) /dev/zero | tr '\\0' a; echo"
        let request = ProcessRequest(arguments: ["sh", "-c", script, secret], directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let result = try await ProcessRunner.run(request, onLine: { _, _ in })
        let masked = SecretMasker(secrets: [secret]).mask(result.standardOutput)
        #expect(!masked.contains(String(secret.suffix(10))), "the end of the secret stayed after the cut")
        #expect(result.standardOutput == String(repeating: "a", count: filler) + "\n")
    }

    @Test func aMissingDirectoryIsAClearError() async throws {
        let request = ProcessRequest(arguments: ["pwd"], directory: "/no/such/dir", environment: ["PATH": "/usr/bin:/bin"])
        await #expect(throws: ProcessError.noSuchDirectory("/no/such/dir")) {
            try await ProcessRunner.run(request) { _, _ in }
        }
        #expect(ProcessError.noSuchDirectory("/no/such/dir").description == "no such directory '/no/such/dir'")
        #expect(ProcessError.commandNotFound("x").description == "command not found: 'x'")
    }

    @Test func aPathThatCannotBeExecutedIsAClearError() async throws {
        // A directory passes the search (it is "executable"), and the kernel refuses to run it.
        let request = ProcessRequest(arguments: ["/tmp"], directory: "/tmp", environment: [:])
        let expected = ProcessError.spawnFailed(command: "/tmp", reason: "the system cannot execute it (is it a directory, or is its #! interpreter missing?)")
        await #expect(throws: expected) {
            try await ProcessRunner.run(request) { _, _ in }
        }
    }

    @Test func aBackgroundProcessHoldingTheOutputOpenDoesNotHoldUpTheRunner() async throws {
        // The command is done when its own process exits; a daemon it started may keep the pipes open for
        // much longer (it stays in the group, and is stopped with it only on cancellation).
        let marker = TestTemporary.root + "/daemon-\(UUID().uuidString)"
        let lines = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "echo $$; (sleep 600; touch \(marker)) & echo done"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let result = try await ProcessRunner.run(request, onLine: lines.add)
        #expect(!FileManager.default.fileExists(atPath: marker), "the runner returned before the daemon finished")
        #expect(result.status == 0)
        #expect(lines.all.last == "stdout: done")
        let group = try #require(Int32(lines.all[0].dropFirst("stdout: ".count)))
        kill(-group, SIGKILL)
    }

    /// Polls `condition` every 20 ms for up to a minute: generous, because tests that block the cooperative
    /// pool (the end-to-end ones wait for the `release` binary) can hold up this test's own tasks for seconds.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            try #require(Date() < deadline, "timed out waiting")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

@Suite struct FilePathTests {
    @Test(arguments: [("/a/b", "/a"), ("/a", "/"), ("/", "/"), ("a/b", "a"), ("a", "."), ("/a/b/", "/a"), ("a//b", "a"), ("*", ".")])
    func parentOfAPath(path: String, parent: String) {
        #expect(FilePath.parent(of: path) == parent)
    }

    @Test func fileStateOfAMissingPathNearTheRootDoesNotCrash() {
        let context = StepContext(stepID: "s", kind: "shell", workingDirectory: "/", environment: [:])
        #expect(context.fileState("/no-such-file-at-root") == .missing)
        #expect(context.fileState("x") == .missing)
    }
}
