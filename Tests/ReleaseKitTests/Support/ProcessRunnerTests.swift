import Foundation
import Synchronization
import Testing
@testable import ReleaseKit

@Suite struct ProcessRunnerTests {
    final class Lines: Sendable {
        let storage = Mutex<[String]>([])
        func add(_ line: String, _ stream: OutputStreamKind) { storage.withLock { $0.append("\(stream.rawValue): \(line)") } }
        var all: [String] { storage.withLock { $0 } }
    }

    @Test func streamsLinesAndKeepsExitStatus() async throws {
        let lines = Lines()
        let request = ProcessRequest(arguments: ["sh", "-c", "echo one; echo two >&2; printf three; exit 7"],
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
        let marker = NSTemporaryDirectory() + "child-\(UUID().uuidString)"
        let script = "(sleep 5; touch \(marker)) & sleep 60"
        let request = ProcessRequest(arguments: ["sh", "-c", script], directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let task = Task { try await ProcessRunner.run(request, killGrace: 1) { _, _ in } }
        try await Task.sleep(for: .milliseconds(300))
        let started = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 30, "cancellation must not wait for the 60 s command")
        try await Task.sleep(for: .seconds(5.5))
        #expect(!FileManager.default.fileExists(atPath: marker), "the grandchild must have been killed with its group")
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
