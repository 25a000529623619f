import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSupport

/// `release run`'s planning without the command line: `--resume` plans again from the unfinished run's journal.
@Suite struct RunServiceTests {
    static let text = #"""
        {"version": 1, "steps": [
          {"id": "hello", "uses": "shell", "with": {"run": ["true"]}},
          {"id": "fail", "uses": "shell", "needs": ["hello"], "with": {"run": ["false"]}}
        ]}
        """#

    /// A folder where `text` ran once and failed at `fail`, leaving its journal.
    static func unfinishedRun() async throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["hello=ok", "fail=failed"])
        return directory
    }

    @Test func resumingPlansAgainWithTheFirstRunsClockAndFinishedSteps() async throws {
        let directory = try await Self.unfinishedRun()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let later = Date(timeIntervalSince1970: 1_800_000_000)
        let options = RunOptions(workingDirectory: directory, jobs: 1, resume: true, now: later, git: TestPipelines.fixedGit)
        let planned = try await RunService.plan(try TestPipelines.load(Self.text), options: options, masker: SecretMasker())
        let journal = try #require(planned.journal)
        #expect(planned.notice == nil)
        #expect(journal.now == Date(timeIntervalSince1970: 1_413_957_678))
        #expect(planned.options.now == journal.now)
        #expect(planned.options.journaled == ["hello"])
        #expect(planned.plan.options.now == journal.now)
    }

    @Test func resumingWithoutAnUnfinishedRunSaysSoAndPlansFromTheStart() async throws {
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var options = RunOptions(workingDirectory: directory, jobs: 1, resume: true, now: now, git: TestPipelines.fixedGit)
        var planned = try await RunService.plan(try TestPipelines.load(Self.text), options: options, masker: SecretMasker())
        #expect(planned.journal == nil)
        #expect(planned.notice == "resume: no unfinished run of test.json with profile 'none'; running every step")
        #expect(planned.options.now == now)
        #expect(planned.options.journaled.isEmpty)
        options.only = ["hello"]
        planned = try await RunService.plan(try TestPipelines.load(Self.text), options: options, masker: SecretMasker())
        #expect(planned.notice == "resume: no unfinished run of test.json with profile 'none'; running the selected steps and what they need")
    }

    @Test func withoutResumeTheJournalIsNotRead() async throws {
        let directory = try await Self.unfinishedRun()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let options = RunOptions(workingDirectory: directory, jobs: 1, now: now, git: TestPipelines.fixedGit)
        let planned = try await RunService.plan(try TestPipelines.load(Self.text), options: options, masker: SecretMasker())
        #expect(planned.journal == nil)
        #expect(planned.notice == nil)
        #expect(planned.options.now == now)
    }

    @Test func anUnknownProfileIsAUsageError() async throws {
        let options = RunOptions(workingDirectory: "/nonexistent", profile: "nope", jobs: 1, resume: true, git: TestPipelines.fixedGit)
        await #expect(throws: UsageError.self) {
            _ = try await RunService.plan(try TestPipelines.load(Self.text), options: options, masker: SecretMasker())
        }
    }
}
