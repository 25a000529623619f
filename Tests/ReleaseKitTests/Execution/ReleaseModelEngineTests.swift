import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSupport

/// The engine's part of the release model (issue 34): `skip_if` skips at run time on a step's outputs, a journal
/// belongs to its commit and never carries a gate, and a run that cannot build here refuses to commit, tag or push.
@Suite struct ReleaseModelEngineTests {
    /// `skip_if` true: skipped with its reason, and a step reading its outputs with it; a step only needing it runs.
    @Test(arguments: [("true", ["shipped=ok", "build=skipped", "export=skipped", "after=ok"]), ("false", ["shipped=ok", "build=ok", "export=ok", "after=ok"])])
    func skipIfDecidesOnAnOutputAtRunTime(value: String, statuses: [String]) async throws {
        let board = "skip-if-\(value)-\(UUID().uuidString)"
        let text = """
            {"version": 1, "steps": [
              {"id": "shipped", "uses": "test.work", "with": {"board": "\(board)", "value": "\(value)"}},
              {"id": "build", "uses": "test.work", "skip_if": "${steps.shipped.outputs.value}", "with": {"board": "\(board)"}},
              {"id": "export", "uses": "test.work", "with": {"board": "\(board)", "value": "${steps.build.outputs.value}"}},
              {"id": "after", "uses": "test.work", "needs": ["export"], "with": {"board": "\(board)"}}
            ]}
            """
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.statuses == statuses)
        #expect(result.exitCode == 0)
        if value == "true" {
            #expect(result.steps.first { $0.id == "build" }?.message == "skip_if: ${steps.shipped.outputs.value} is true")
            #expect(Blackboard.shared.value(board, "ran:build") == 0)
        }
        // The graph orders the step after what its skip_if reads, without a `needs`.
        let plan = try await Planner().plan(try TestPipelines.load(text), options: RunOptions(git: TestPipelines.fixedGit), masker: SecretMasker())
        #expect(plan.steps.first { $0.id == "build" }?.needs == ["shipped"])
    }

    /// A dry run decides `skip_if` on what the producer promises (a read-only step really runs in a dry run).
    @Test func aDryRunSkipsOnAPromisedOutput() async throws {
        let board = "skip-if-dry-\(UUID().uuidString)"
        let text = """
            {"version": 1, "steps": [
              {"id": "shipped", "uses": "test.work", "with": {"board": "\(board)", "value": "true", "read_only": true}},
              {"id": "build", "uses": "test.work", "skip_if": "${steps.shipped.outputs.value}", "with": {"board": "\(board)"}}
            ]}
            """
        let (result, _) = try await TestPipelines.run(text, configure: { $0.dryRun = true })
        #expect(result.statuses == ["shipped=ok", "build=skipped"])
    }

    static let gated = #"""
        {"version": 1, "steps": [
          {"id": "hello", "uses": "shell", "with": {"run": ["true"]}},
          {"id": "check", "uses": "gate.command", "gate": true, "needs": ["hello"], "with": {"run": ["true"]}},
          {"id": "fail", "uses": "shell", "needs": ["check"], "with": {"run": ["false"]}}
        ]}
        """#

    /// `--resume` on the commit the journal is of takes its steps, but never a gate; on another commit it starts over
    /// and says why.
    @Test func aJournalBelongsToItsCommitAndNeverCarriesAGate() async throws {
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (first, _) = try await TestPipelines.run(Self.gated, configure: { $0.workingDirectory = directory })
        #expect(first.statuses == ["hello=ok", "check=ok", "fail=failed"])

        var options = RunOptions(workingDirectory: directory, jobs: 1, resume: true, git: TestPipelines.fixedGit)
        let same = try await RunService.plan(try TestPipelines.load(Self.gated), options: options, masker: SecretMasker())
        #expect(same.notice == nil)
        let reporter = RecordingReporter()
        let resumed = await Engine(plan: same.plan, reporter: reporter, masker: SecretMasker(), journal: same.journal).run()
        #expect(resumed.statuses == ["hello=resumed", "check=ok", "fail=failed"], "the gate checks again")

        options.git = GitInfo(branch: "release/3.0.0", sha: "fedcba9876543210fedcba9876543210fedcba98", commitCount: 4322)
        let other = try await RunService.plan(try TestPipelines.load(Self.gated), options: options, masker: SecretMasker())
        #expect(other.journal == nil)
        #expect(
            other.notice
                == "resume: the unfinished run was of commit 0123456789ab, and HEAD is now fedcba987654: its steps are not this commit's; running every step again")
    }

    static let build = #"""
        {"version": 1, "steps": [
          {"id": "bump", "uses": "shell", "with": {"run": ["true"]}},
          {"id": "archive", "uses": "xcode.archive", "when": {"os": "macos"}, "needs": ["bump"],
           "with": {"project": "App.xcodeproj", "scheme": "App", "configuration": "Release", "archive_path": "build/App.xcarchive"}},
          {"id": "export", "uses": "xcode.export", "when": {"os": "macos"},
           "with": {"archive": "${steps.archive.outputs.path}", "method": "app-store-connect", "export_path": "build/export"}},
          {"id": "tag", "uses": "git.tag", "needs": ["bump"], "with": {"name": "v1"}},
          {"id": "push", "uses": "git.push", "needs": ["tag"], "with": {"refs": ["v1"]}}
        ]}
        """#

    /// On Linux the Xcode steps are skipped: a real run would still tag and push, so it is refused before anything runs;
    /// a dry run, a run for macOS and one job of an exported workflow (`--only`) are not.
    @Test func aRunThatCannotBuildHereRefusesToRecordABumpAlone() async throws {
        let pipeline = try TestPipelines.load(Self.build)
        let linux = RunOptions(os: "linux", git: TestPipelines.fixedGit)
        await #expect {
            _ = try await RunService.plan(pipeline, options: linux, masker: SecretMasker())
        } throws: { error in
            (error as? UsageError)?.message
                == "this run cannot build here: 'archive', 'export' run on macos only and this is linux, but 'tag', 'push' would still commit, tag or push: a bump with no build. Run it on a macos runner (release export makes the jobs), or see what it would do with 'release run --dry-run --os macos'"
        }
        var dry = linux
        dry.dryRun = true
        _ = try await RunService.plan(pipeline, options: dry, masker: SecretMasker())
        var job = linux
        job.only = ["tag", "push"]
        _ = try await RunService.plan(pipeline, options: job, masker: SecretMasker())
        _ = try await RunService.plan(pipeline, options: RunOptions(os: "macos", git: TestPipelines.fixedGit), masker: SecretMasker())
    }
}
