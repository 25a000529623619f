import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Issue 37: a step whose `wait` budget runs out ends *waiting*, not failed: the run exits 0, the steps after it wait
/// too (they are not done, nor skipped as done), the journal records it and stays, and running the same pipeline on
/// the same commit again (`--resume`) continues from there without running the finished steps again.
@Suite struct WaitingStateTests {
    static func pipeline(board: String, waitRuns: Int) -> String {
        """
        {"version": 1, "steps": [
          {"id": "archive", "uses": "test.work", "with": {"board": "\(board)"}},
          {"id": "upload", "uses": "test.work", "needs": ["archive"], "with": {"board": "\(board)", "wait_runs": \(waitRuns)}},
          {"id": "testflight", "uses": "test.work", "needs": ["upload"], "with": {"board": "\(board)"}},
          {"id": "tag", "uses": "test.work", "needs": ["testflight"], "with": {"board": "\(board)"}},
          {"id": "dsyms", "uses": "test.work", "needs": ["archive"], "with": {"board": "\(board)"}},
          {"id": "cleanup", "uses": "test.work", "always": true, "with": {"board": "\(board)"}}
        ]}
        """
    }

    @Test func aWaitThatRunsOutIsRecordedWaitingAndTheRunExitsZero() async throws {
        let board = "waiting-\(UUID().uuidString)"
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (result, reporter) = try await TestPipelines.run(Self.pipeline(board: board, waitRuns: 1)) { $0.workingDirectory = directory }
        #expect(result.statuses == ["archive=ok", "upload=waiting", "testflight=waiting", "tag=waiting", "dsyms=ok", "cleanup=ok"])
        #expect(result.exitCode == 0)
        #expect(result.step("upload")?.message == "processing of upload: still PROCESSING after 5m00s, the step's wait budget")
        #expect(result.step("testflight")?.message == "waiting for 'upload'")
        #expect(result.step("tag")?.message == "waiting for 'testflight'")
        #expect(result.waiting.map(\.id) == ["upload"], "only the step that waited on something outside")
        #expect(Blackboard.shared.value(board, "ran:testflight") == 0 && Blackboard.shared.value(board, "ran:upload") == 1)
        // The console says which step waits and what for, and that the run is waiting, not failed.
        let lines = Recorder<String>()
        let console = ConsoleReporter(style: .plain, timestamps: false, write: lines.append)
        for event in reporter.events { console.report(event) }
        let text = lines.all.joined()
        #expect(text.contains("⏸ upload waiting: processing of upload: still PROCESSING after 5m00s, the step's wait budget\n"), "\(text)")
        #expect(text.contains("⏸ tag waiting: waiting for 'testflight'\n"), "\(text)")
        #expect(
            text.contains(
                "release waiting (not failed): upload: processing of upload: still PROCESSING after 5m00s, the step's wait budget; run the same pipeline on this commit again (--resume) to continue in "
            ), "\(text)")
        // Never retried: the wait is over for this run.
        #expect(result.step("upload")?.attempts == 1)
        // The report says what the run waits for.
        let report = RunReport.object(result)
        let waiting = try #require(report["waiting"] as? [[String: Any]])
        #expect(waiting.first?["step"] as? String == "upload")
        #expect((waiting.first?["for"] as? String)?.contains("still PROCESSING") == true)
        #expect((report["steps"] as? [[String: Any]])?.first { $0["id"] as? String == "tag" }?["status"] as? String == "waiting")
        // Exported jobs see a waiting run by this line of the written report (WorkflowResume): the top-level key, two
        // spaces in, on its own line.
        let written = RunReport.encode(report, pretty: true, masker: SecretMasker())
        #expect(written.contains("\n  \"waiting\" : [\n"), "\(written)")

        // The journal records the waiting step, and stays: the release is open.
        let journal = try #require(
            try RunJournal.load(
                path: RunJournal.path(for: "test.json", in: directory), pipeline: "test.json", profile: nil, workspace: directory,
                key: RunJournalKey.resolve(environment: ProcessInfo.processInfo.environment)))
        #expect(journal.waiting == ["upload": "processing of upload: still PROCESSING after 5m00s, the step's wait budget"])
        #expect(journal.steps == ["archive", "cleanup", "dsyms"])
    }

    @Test func runningTheSamePipelineOnTheSameCommitAgainContinuesWithoutRedoingAnything() async throws {
        let board = "resume-waiting-\(UUID().uuidString)"
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Self.pipeline(board: board, waitRuns: 2)
        let (first, _) = try await TestPipelines.run(text) { $0.workingDirectory = directory }
        #expect(first.exitCode == 0 && first.waiting.map(\.id) == ["upload"])

        func resume() async throws -> RunResult {
            let options = RunOptions(workingDirectory: directory, jobs: 1, resume: true, git: TestPipelines.fixedGit)
            let planned = try await RunService.plan(try TestPipelines.load(text), options: options, masker: SecretMasker())
            #expect(planned.journal != nil && planned.notice == nil)
            return await Engine(plan: planned.plan, reporter: RecordingReporter(), masker: SecretMasker(), journal: planned.journal).run()
        }
        // Still processing at the second look: waiting again, nothing else run again.
        let second = try await resume()
        #expect(second.statuses == ["archive=resumed", "upload=waiting", "testflight=waiting", "tag=waiting", "dsyms=resumed", "cleanup=ok"])
        #expect(second.exitCode == 0)
        // Done at the third: the steps after it run, the finished ones are taken from the journal.
        let third = try await resume()
        #expect(third.statuses == ["archive=resumed", "upload=ok", "testflight=ok", "tag=ok", "dsyms=resumed", "cleanup=ok"])
        #expect(third.exitCode == 0 && third.waiting.isEmpty)
        #expect(Blackboard.shared.value(board, "ran:archive") == 1 && Blackboard.shared.value(board, "ran:dsyms") == 1)
        #expect(Blackboard.shared.value(board, "ran:upload") == 3 && Blackboard.shared.value(board, "ran:tag") == 1)
        // The release is done: nothing is left to resume.
        #expect(RunJournal.family(of: RunJournal.path(for: "test.json", in: directory)).isEmpty)
    }

    @Test func aStepAfterAWaitingAndAFailedStepIsBlockedNotWaiting() async throws {
        let board = "waiting-failed-\(UUID().uuidString)"
        let text = """
            {"version": 1, "steps": [
              {"id": "upload", "uses": "test.work", "with": {"board": "\(board)", "wait_runs": 1}},
              {"id": "broken", "uses": "test.work", "with": {"board": "\(board)", "fail_times": 9}},
              {"id": "publish", "uses": "test.work", "needs": ["upload", "broken"], "with": {"board": "\(board)"}}
            ]}
            """
        let (result, _) = try await TestPipelines.run(text) { $0.keepGoing = true }
        #expect(result.statuses == ["upload=waiting", "broken=failed", "publish=blocked"])
        #expect(result.step("publish")?.message == "'broken' failed")
        #expect(result.exitCode == 1)
    }

    @Test func aNotificationHearsTheRunIsWaitingNotThatItSucceeded() async throws {
        let board = "waiting-status-\(UUID().uuidString)"
        let (result, _) = try await TestPipelines.run(Self.pipeline(board: board, waitRuns: 1))
        #expect(result.exitCode == 0)
        #expect(NotifySlackStep.When.success.matches(.waiting) == false)
        #expect(NotifySlackStep.When.failure.matches(.waiting) == false)
        #expect(NotifySlackStep.When.waiting.matches(.waiting) && NotifySlackStep.When.always.matches(.waiting))
        #expect(NotifySlackStep.word(.waiting) == "is waiting on Apple")
    }
}
