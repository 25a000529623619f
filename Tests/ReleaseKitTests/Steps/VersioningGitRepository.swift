import Foundation
import ReleaseTestSupport

@testable import ReleaseSteps
@testable import ReleaseSupport

/// A temporary git repository for step tests, with an identity so commits work anywhere.
struct VersioningGitRepository {
    let path: String

    init(copying fixture: String? = nil) async throws {
        let folder = TestTemporary.root + "/release-git-\(UUID().uuidString)"
        if let fixture {
            try FileManager.default.copyItem(atPath: fixture, toPath: folder)
            try? FileManager.default.removeItem(atPath: folder + "/expected")
        } else {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "hello\n".write(toFile: folder + "/README", atomically: true, encoding: .utf8)
        }
        path = folder
        try await git("init", "-q", "-b", "main")
        try await git("config", "user.name", "Release Test")
        try await git("config", "user.email", "release@example.com")
        try await git("config", "commit.gpgsign", "false")
        try await git("add", "-A")
        try await git("commit", "-q", "-m", "Initial commit")
    }

    @discardableResult
    func git(_ arguments: String...) async throws -> String {
        let result = try await ProcessRunner.run(
            ProcessRequest(arguments: ["git"] + arguments, directory: path, environment: ProcessInfo.processInfo.environment)
        ) { _, _ in }
        guard result.succeeded else {
            throw StepError.failed("git \(arguments.joined(separator: " ")) exited with \(result.status)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func context(dryRun: Bool = false, environment: [String: String] = [:], generated: [String] = [], events: VersioningEventLog? = nil) -> StepContext {
        StepContext(
            stepID: "test", kind: "test", workingDirectory: path,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new }, isDryRun: dryRun,
            generatedPaths: generated, sink: { event in events?.append(event) }
        )
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Records step events for assertions.
final class VersioningEventLog: @unchecked Sendable {
    // Guarded by `lock`: events arrive from the process reader threads.
    private let lock = NSLock()
    private var storage: [StepEvent] = []

    func append(_ event: StepEvent) {
        lock.lock()
        storage.append(event)
        lock.unlock()
    }

    var events: [StepEvent] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
