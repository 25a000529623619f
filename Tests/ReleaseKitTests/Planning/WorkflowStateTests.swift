import Foundation
import Testing

@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Issue 24: the scripts an exported job runs to hand its commits and changes to the jobs after it, run with sh in
/// fresh clones of one repository, as separate runners would: a tag made in a later job names the commit an earlier
/// job made, and the uncommitted changes arrive too.
@Suite struct WorkflowStateTests {
    static let temporary = ".git/release-tmp"

    /// A fresh clone of `origin` in its own folder: one runner's checkout.
    static func checkout(_ origin: VersioningGitRepository, _ name: String) async throws -> VersioningGitRepository.Clone {
        let path = origin.path + "-" + name
        try await origin.git("clone", "-q", origin.path, path)
        let clone = VersioningGitRepository.Clone(path: path)
        try await clone.sh("git config user.name 'Release Test' && git config user.email release@example.com && git config commit.gpgsign false")
        return clone
    }

    /// Copies the bundles of `jobs` from `from` into `to`, as the state artifacts do.
    static func carry(_ jobs: [String], from: VersioningGitRepository.Clone, to: VersioningGitRepository.Clone) throws {
        try FileManager.default.createDirectory(atPath: to.path + "/" + WorkflowState.folder, withIntermediateDirectories: true)
        for job in jobs {
            let file = "/\(WorkflowState.folder)/\(job).bundle"
            if FileManager.default.fileExists(atPath: from.path + file) {
                try? FileManager.default.removeItem(atPath: to.path + file)
                try FileManager.default.copyItem(atPath: from.path + file, toPath: to.path + file)
            }
        }
    }

    @Test func aTagInALaterJobNamesTheCommitAnEarlierJobMade() async throws {
        let origin = try await VersioningGitRepository()
        defer { origin.remove() }
        let checkedOut = try await origin.git("rev-parse", "HEAD")

        // Job a: the bump, committed, and an uncommitted change.
        let a = try await Self.checkout(origin, "a")
        try await a.sh(
            WorkflowState.before(temporary: Self.temporary)
                + ["echo 3.0.1 > VERSION", "git add VERSION", "git commit -q -m Bump", "echo changed >> README"]
                + WorkflowState.record(job: "a", temporary: Self.temporary))
        let bump = try await a.sh(["git rev-parse HEAD"])
        #expect(bump != checkedOut)
        #expect(FileManager.default.fileExists(atPath: a.path + "/.git/release-changes/a.bundle"))

        // Job b (needs a): tags, then commits once more.
        let b = try await Self.checkout(origin, "b")
        try Self.carry(["a"], from: a, to: b)
        let restored = try await b.sh(
            WorkflowState.restore(ancestors: ["a"], temporary: Self.temporary) + WorkflowState.before(temporary: Self.temporary)
                + ["git tag v3.0.1", "echo notes > NOTES", "git add NOTES", "git commit -q -m Notes"]
                + WorkflowState.record(job: "b", temporary: Self.temporary))
        #expect(restored.contains("release: starting from the repository as job a left it:"), "\(restored)")
        #expect(try await b.sh(["git rev-parse v3.0.1^{commit}"]) == bump, "the tag names the bump's commit")
        #expect(try await b.sh(["git rev-parse HEAD^"]) == bump)
        #expect(try await b.sh(["cat VERSION"]) == "3.0.1")
        #expect(try await b.sh(["git status --porcelain"]) == "M README", "the uncommitted change arrived uncommitted")
        #expect(try await b.sh(["git rev-parse --abbrev-ref HEAD"]) == "main", "the branch moved with it, for a push")

        // Job c (needs a and b): starts from b's state, which holds a's.
        let c = try await Self.checkout(origin, "c")
        try Self.carry(["a"], from: a, to: c)
        try Self.carry(["b"], from: b, to: c)
        try await c.sh(WorkflowState.restore(ancestors: ["a", "b"], temporary: Self.temporary))
        #expect(try await c.sh(["git log --format=%s -3"]) == "Notes\nBump\nInitial commit")
        #expect(try await c.sh(["tail -1 README"]) == "changed")
        #expect(try await c.sh(["git status --porcelain"]) == "M README")

        // A job that changes nothing hands on nothing: the job after it starts from the state before it.
        let quiet = try await Self.checkout(origin, "quiet")
        try Self.carry(["a"], from: a, to: quiet)
        try await quiet.sh(
            WorkflowState.restore(ancestors: ["a"], temporary: Self.temporary) + WorkflowState.before(temporary: Self.temporary)
                + WorkflowState.record(job: "quiet", temporary: Self.temporary))
        #expect(!FileManager.default.fileExists(atPath: quiet.path + "/.git/release-changes/quiet.bundle"))

        // Two jobs that both committed, neither waiting for the other: the job after both fails, naming them.
        let d = try await Self.checkout(origin, "d")
        try await d.sh(
            WorkflowState.before(temporary: Self.temporary) + ["echo other > OTHER", "git add OTHER", "git commit -q -m Other"]
                + WorkflowState.record(job: "d", temporary: Self.temporary))
        let e = try await Self.checkout(origin, "e")
        try Self.carry(["a"], from: a, to: e)
        try Self.carry(["d"], from: d, to: e)
        let refused = try await e.run(WorkflowState.restore(ancestors: ["a", "d"], temporary: Self.temporary))
        #expect(refused.status != 0)
        #expect(refused.output.contains("jobs a and d both changed the repository, and neither waits for the other"), "\(refused.output)")

        for clone in [a, b, c, quiet, d, e] { try? FileManager.default.removeItem(atPath: clone.path) }
    }
}

extension VersioningGitRepository {
    /// Another checkout of a test repository, where scripts run with sh.
    struct Clone {
        let path: String

        /// Runs `lines` as one `sh -e` script; its standard output and error together.
        func run(_ lines: [String]) async throws -> (status: Int32, output: String) {
            let script = "set -eu\n{\n" + lines.joined(separator: "\n") + "\n} 2>&1"
            let result = try await ProcessRunner.run(
                ProcessRequest(arguments: ["/bin/sh", "-c", script], directory: path, environment: ProcessInfo.processInfo.environment)
            ) { _, _ in }
            return (result.status, result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// Runs `lines`, failing the test when they fail; the output, trimmed.
        @discardableResult
        func sh(_ lines: [String]) async throws -> String {
            let result = try await run(lines)
            guard result.status == 0 else { throw StepError.failed("sh exited with \(result.status):\n\(result.output)") }
            return result.output
        }

        @discardableResult
        func sh(_ line: String) async throws -> String { try await sh([line]) }
    }
}
