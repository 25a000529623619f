import Foundation
import Synchronization
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct EngineTests {
    let board = UUID().uuidString

    func work(_ id: String, needs: [String] = [], ms: Int = 0, extra: String = "", flags: String = "") -> String {
        let needsText = needs.map { "\"\($0)\"" }.joined(separator: ", ")
        return
            #"{"id": "\#(id)", "uses": "test.work", "needs": [\#(needsText)]\#(flags.isEmpty ? "" : ", " + flags), "with": {"board": "\#(board)", "milliseconds": \#(ms)\#(extra.isEmpty ? "" : ", " + extra)}}"#
    }

    func pipeline(_ steps: [String]) -> String {
        #"{"version": 1, "steps": [\#(steps.joined(separator: ",\n"))]}"#
    }

    @Test func runsIndependentStepsInParallelUpToJobs() async throws {
        let text = pipeline([work("a", ms: 300), work("b", ms: 300), work("c", ms: 300)])
        let (result, _) = try await TestPipelines.run(text) { $0.jobs = 2 }
        #expect(result.exitCode == 0)
        #expect(Blackboard.shared.value(board, "max") == 2)
    }

    @Test func jobsOneRunsOneAtATimeInDeclarationOrder() async throws {
        let text = pipeline([work("c", ms: 20), work("a", ms: 20), work("b", needs: ["c"], ms: 20), work("d", ms: 20)])
        let (result, reporter) = try await TestPipelines.run(text) { $0.jobs = 1 }
        #expect(result.exitCode == 0)
        #expect(Blackboard.shared.value(board, "max") == 1)
        #expect(reporter.started == ["c", "a", "b", "d"])
    }

    @Test func passesOutputsDownstream() async throws {
        let text = pipeline([
            work("a", extra: #""value": "3.0.1""#),
            #"{"id": "b", "uses": "print", "with": {"message": "version ${steps.a.outputs.value} (attempt ${steps.a.outputs.attempt})"}}"#,
        ])
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.exitCode == 0)
        #expect(reporter.logLines.contains("b: version 3.0.1 (attempt 1)"))
        #expect(result.step("b")?.outputs["message"] == .string("version 3.0.1 (attempt 1)"))
    }

    /// Options are decoded and validated once per run: a step whose options hold no `${…}` is the one validation
    /// built, and one that reads another step's outputs is built once its options are resolved. Before, preflight and
    /// the run each decoded every step again (four decodings here, now one).
    @Test func eachStepsOptionsAreDecodedOncePerRun() async throws {
        let text = pipeline([
            work("a", extra: #""value": "3.0.1""#),
            #"{"id": "b", "uses": "print", "with": {"message": "version ${steps.a.outputs.value}"}}"#,
        ])
        let pipeline = Mutex<ValidatedPipeline?>(nil)
        let (result, _) = try await TestPipelines.run(text, loaded: { loaded in pipeline.withLock { $0 = loaded } })
        #expect(result.exitCode == 0)
        let built = try #require(pipeline.withLock { $0 }).builtSteps
        #expect(built.decodingsAfterValidation == 1)
    }

    @Test func aFailureBlocksDependentsLetsSiblingsFinishAndStartsNothingNew() async throws {
        let text = pipeline([
            work("fails", ms: 50, extra: #""fail_times": 9"#),
            work("sibling", ms: 300),
            work("dependent", needs: ["fails"]),
            work("later", needs: ["sibling"]),
            #"{"id": "cleanup", "uses": "test.work", "always": true, "needs": ["fails"], "with": {"board": "\#(board)"}}"#,
        ])
        let (result, _) = try await TestPipelines.run(text) { $0.jobs = 2 }
        #expect(result.statuses == ["fails=failed", "sibling=ok", "dependent=blocked", "later=cancelled", "cleanup=ok"])
        #expect(result.step("fails")?.message == "fails failed on attempt 1")
        #expect(result.step("dependent")?.message == "'fails' failed")
        #expect(result.step("later")?.message == "not started: 'fails' failed")
        #expect(result.exitCode == 1)
        #expect(Blackboard.shared.value(board, "ran:later") == 0)
        #expect(Blackboard.shared.value(board, "ran:cleanup") == 1)
    }

    @Test func keepGoingRunsIndependentBranches() async throws {
        let text = pipeline([work("fails", extra: #""fail_times": 9"#), work("dependent", needs: ["fails"]), work("other", ms: 50), work("later", needs: ["other"])])
        let (result, _) = try await TestPipelines.run(text) {
            $0.keepGoing = true; $0.jobs = 1
        }
        #expect(result.statuses == ["fails=failed", "dependent=blocked", "other=ok", "later=ok"])
        #expect(result.exitCode == 1)
    }

    @Test func everyGateRunsAndAFailedGateBlocksDownstreamWithExitTwo() async throws {
        let text = pipeline([
            work("build"),
            work("gate-a", needs: ["build"], extra: #""reject": true"#, flags: #""gate": true"#),
            work("gate-b", needs: ["build"], extra: #""reject": true"#, flags: #""gate": true"#),
            work("gate-c", needs: ["build"], flags: #""gate": true"#),
            work("publish", needs: ["gate-a", "gate-b", "gate-c"]),
            #"{"id": "cleanup", "uses": "test.work", "always": true, "with": {"board": "\#(board)"}}"#,
        ])
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.statuses == ["build=ok", "gate-a=rejected", "gate-b=rejected", "gate-c=ok", "publish=blocked", "cleanup=ok"])
        #expect(result.step("gate-a")?.message == "gate-a found a problem")
        #expect(result.step("publish")?.message == "'gate-a' rejected the release")
        #expect(result.exitCode == 2)
    }

    @Test func gatesStillRunAfterAStepFails() async throws {
        let text = pipeline([work("fails", ms: 10, extra: #""fail_times": 9"#), work("gate", ms: 100, extra: #""reject": true"#, flags: #""gate": true"#)])
        let (result, _) = try await TestPipelines.run(text) { $0.jobs = 1 }
        #expect(result.statuses == ["fails=failed", "gate=rejected"])
        #expect(result.exitCode == 1)
    }

    @Test func retriesWithBackOffUntilSuccess() async throws {
        let text = pipeline([work("flaky", extra: #""fail_times": 2"#, flags: #""retries": 2, "retry_delay": 0.01"#)])
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.step("flaky")?.status == .succeeded)
        #expect(result.step("flaky")?.attempts == 3)
        let retries = reporter.events.compactMap { event -> Double? in
            if case .stepRetrying(_, _, let delay, _) = event { return delay }
            return nil
        }
        #expect(retries == [0.01, 0.02])
    }

    @Test func retriesRunOut() async throws {
        let text = pipeline([work("flaky", extra: #""fail_times": 5"#, flags: #""retries": 1, "retry_delay": 0"#)])
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.step("flaky")?.status == .failed)
        #expect(result.step("flaky")?.attempts == 2)
        #expect(result.step("flaky")?.message == "flaky failed on attempt 2")
    }

    @Test func continueOnErrorDoesNotFailTheRun() async throws {
        let text = pipeline([work("optional", extra: #""fail_times": 1"#, flags: #""continue_on_error": true"#), work("next", needs: ["optional"])])
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.statuses == ["optional=failed (ignored)", "next=ok"])
        #expect(result.exitCode == 0)
    }

    @Test func timeoutKillsTheStepsProcess() async throws {
        let folder = TestPipelines.temporaryDirectory()
        let marker = folder + "/survived", pidFile = folder + "/shell.pid"
        let script = "echo $$ > \(pidFile); sleep 3; touch \(marker)"
        let text = pipeline([#"{"id": "slow", "uses": "shell", "timeout": 0.5, "with": {"run": ["sh", "-c", "\#(script)"]}}"#])
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.step("slow")?.status == .failed)
        #expect(result.step("slow")?.message == "timed out after 0.5s; the step's processes were stopped")
        // Wait for the shell to be gone (at once when it was stopped; after its `touch` if it survived), then look.
        let pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        let deadline = Date().addingTimeInterval(30)
        while let pid, Platform.processIsRunning(pid), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(pid.map { !Platform.processIsRunning($0) } ?? true, "the step's shell outlived its timeout")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func interruptCancelsRunningStepsRunsAlwaysStepsAndExits130() async throws {
        let text = pipeline([
            work("long", ms: 20_000),
            work("after", needs: ["long"]),
            #"{"id": "remove-certificate", "uses": "test.work", "always": true, "needs": ["long"], "with": {"board": "\#(board)"}}"#,
        ])
        let board = self.board
        let (result, _) = try await TestPipelines.run(
            text,
            onStart: { engine in
                Task {
                    // Interrupt once the long step is really running, whatever the machine's load.
                    while Blackboard.shared.value(board, "running") == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    engine.interrupt()
                }
            })
        // `cancelled` (not `ok`) proves the 20 s step was stopped rather than waited for.
        #expect(result.statuses == ["long=cancelled", "after=cancelled", "remove-certificate=ok"])
        #expect(result.interrupted)
        #expect(result.exitCode == 130)
    }

    @Test func preflightVerifiesEveryStepBeforeAnythingRuns() async throws {
        let text = pipeline([
            work("build", ms: 10),
            #"{"id": "publish", "uses": "test.verify-fails", "needs": ["build"], "with": {"board": "\#(board)"}}"#,
            #"{"id": "upload", "uses": "test.verify-fails", "with": {"board": "\#(board)"}}"#,
        ])
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.preflightFailed)
        #expect(result.statuses == ["build=cancelled", "publish=failed", "upload=failed"])
        #expect(result.step("publish")?.message == "the token is not accepted")
        #expect(Blackboard.shared.value(board, "ran:build") == 0, "nothing may run after a failed preflight")
        #expect(reporter.started.isEmpty)
        #expect(result.exitCode == 1)
    }

    @Test func dryRunDescribesSideEffectsAndReallyRunsReadOnlySteps() async throws {
        let text = pipeline([
            work("bump", extra: #""value": "3.0.1""#),
            work("check", extra: #""read_only": true"#),
            work("check-after-bump", needs: ["bump"], extra: #""read_only": true"#),
            #"{"id": "note", "uses": "print", "with": {"message": "would release ${steps.bump.outputs.value}"}}"#,
        ])
        let (result, _) = try await TestPipelines.run(text) { $0.dryRun = true }
        #expect(result.statuses == ["bump=planned", "check=ok", "check-after-bump=planned", "note=planned"])
        #expect(result.step("bump")?.effects == [.note("work bump")])
        #expect(result.step("note")?.outputs["message"] == .string("would release 3.0.1"))
        #expect(Blackboard.shared.value(board, "ran:bump") == 0)
        #expect(Blackboard.shared.value(board, "ran:check") == 1)
        #expect(Blackboard.shared.value(board, "ran:check-after-bump") == 0)
        #expect(result.exitCode == 0)
    }

    @Test func dryRunOfAShellStepDoesNotExecuteUnlessReadOnly() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let text = pipeline([
            #"{"id": "write", "uses": "shell", "with": {"run": ["touch", "\#(directory)/written"]}}"#,
            #"{"id": "look", "uses": "shell", "with": {"run": ["ls", "\#(directory)"], "read_only": true}}"#,
        ])
        let (result, _) = try await TestPipelines.run(text) { $0.dryRun = true }
        #expect(result.statuses == ["write=planned", "look=ok"])
        #expect(result.step("write")?.effects == [.command(argv: ["touch", "\(directory)/written"], directory: nil)])
        #expect(!FileManager.default.fileExists(atPath: directory + "/written"))
    }

    @Test func secretsAreMaskedInLogsMessagesAndOutputs() async throws {
        let secret = "s3cr3t-T0ken-value"
        let text = pipeline([
            #"{"id": "use", "uses": "shell", "with": {"run": ["sh", "-c", "echo using $0; echo out=x$0x >> $RELEASE_OUTPUT; exit 3", "${secrets.API_TOKEN}"]}}"#
        ])
        let (result, reporter) = try await TestPipelines.run(text, environment: ["API_TOKEN": secret])
        #expect(result.step("use")?.exitStatus == 3)
        let everything =
            reporter.logLines.joined(separator: "\n") + (result.step("use")?.message ?? "")
            + RunReport.encode(RunReport.object(result), pretty: false, masker: SecretMasker(secrets: [secret]))
        #expect(!everything.contains(secret))
        #expect(reporter.logLines.contains("use: using ***"))
        #expect(result.step("use")?.message?.hasSuffix(" ***' exited with status 3") == true, "\(result.step("use")?.message ?? "")")
    }

    @Test func aMissingSecretFailsPreflightWithItsName() async throws {
        let text = pipeline([#"{"id": "publish", "uses": "print", "with": {"message": "${secrets.RELEASE_TEST_NOT_SET}"}}"#])
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.step("publish")?.message == "secret 'RELEASE_TEST_NOT_SET' is not set: export RELEASE_TEST_NOT_SET in the environment")
        #expect(result.exitCode == 1)
    }
}

/// Every secret a pipeline refers to is masked from the first byte of output, not from when it is interpolated.
@Suite struct EarlySecretTests {
    @Test func aSecretPrintedBeforeAnyStepResolvesItIsMasked() async throws {
        let secret = "ghp_early1234567890token"
        let text = #"""
            {"version": 1, "steps": [
              {"id": "a", "uses": "shell", "with": {"run": ["sh", "-c", "echo early=$REL_TOKEN"]}},
              {"id": "b", "uses": "print", "with": {"message": "${steps.a.outputs.stdout} then ${secrets.REL_TOKEN}"}}
            ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL_TOKEN": secret])
        #expect(result.exitCode == 0)
        #expect(reporter.logLines.contains("a: early=***"), "\(reporter.logLines)")
        #expect(!reporter.logLines.joined().contains(secret))
        // Outputs keep the real value (later steps need it); everything rendered from them is masked.
        let masker = SecretMasker(secrets: [secret])
        let lines = Mutex<[String]>([])
        let json = JSONLinesReporter(masker: masker, write: { line in lines.withLock { $0.append(line) } })
        reporter.events.forEach(json.report)
        #expect(!lines.withLock { $0.joined() }.contains(secret))
        #expect(!RunReport.encode(RunReport.object(result), pretty: true, masker: masker).contains(secret))
    }
}

/// Issue 23 item 6: preflight problems said once, dry runs that run nothing after one, and warnings a dry run shows.
extension EngineTests {
    /// One unset secret used by three steps is one preflight problem: the first step reports it, a step waiting for
    /// it is blocked by it, another using the same secret says it has the same problem, the rest did not start.
    @Test func aPreflightProblemIsReportedOnceAndDependentsAreBlockedByIt() async throws {
        let secret = "${secrets.RELEASE_TEST_NEVER_SET_KEY}"
        let text = pipeline([
            work("sign", extra: #""value": "\#(secret)""#),
            work("upload", needs: ["sign"], extra: #""value": "\#(secret)""#),
            work("tell", extra: #""value": "\#(secret)""#),
            work("build"),
            work("after-build", needs: ["build"]),
        ])
        let output = Mutex("")
        let console = ConsoleReporter(style: .plain, colour: false, timestamps: false, write: { text in output.withLock { $0 += text } })
        let pipeline = try TestPipelines.load(text)
        let options = RunOptions(
            workingDirectory: TestPipelines.temporaryDirectory(), environment: ["PATH": "/usr/bin:/bin"], jobs: 2,
            now: Date(timeIntervalSince1970: 1_413_957_678), git: TestPipelines.fixedGit)
        let masker = SecretMasker()
        let plan = try await Planner().plan(pipeline, options: options, masker: masker)
        let result = await Engine(plan: plan, reporter: console, masker: masker).run()
        let problem = "secret 'RELEASE_TEST_NEVER_SET_KEY' is not set: export RELEASE_TEST_NEVER_SET_KEY in the environment"
        #expect(result.statuses == ["sign=failed", "upload=blocked", "tell=failed", "build=cancelled", "after-build=cancelled"])
        #expect(result.step("sign")?.message == problem)
        #expect(result.step("upload")?.message == "blocked by 'sign', whose preflight failed")
        #expect(result.step("tell")?.message == "not started: the same problem as 'sign' (reported above)")
        #expect(result.step("build")?.message == "not started: preflight failed")
        #expect(result.exitCode == 1)
        let printed = output.withLock { $0 }
        #expect(printed.components(separatedBy: "is not set").count == 2, "the problem is printed once:\n\(printed)")
        for line in [
            "✘ preflight: sign: " + problem, "✘ sign not started: its preflight failed (above)",
            "⊘ upload blocked by 'sign', whose preflight failed",
            "✘ tell not started: the same problem as 'sign' (reported above)", "⊘ build not started: preflight failed",
        ] {
            #expect(printed.contains(line + "\n"), "\(line)\n\(printed)")
        }
    }

    /// A dry run whose preflight failed runs nothing, not even its read-only steps: it shows what each step would do.
    @Test func aDryRunWhosePreflightFailedRunsNothing() async throws {
        let text = pipeline([
            work("check", extra: #""read_only": true"#),
            #"{"id": "publish", "uses": "test.verify-fails", "with": {"board": "\#(board)"}}"#,
            work("announce", needs: ["publish"]),
        ])
        let (result, reporter) = try await TestPipelines.run(text) { $0.dryRun = true }
        #expect(result.preflightFailed)
        #expect(result.statuses == ["check=planned", "publish=failed", "announce=blocked"])
        #expect(result.step("check")?.effects == [.note("work check")])
        #expect(Blackboard.shared.value(board, "ran:check") == 0, "a read-only step ran after preflight failed")
        #expect(reporter.started.isEmpty)
        #expect(result.exitCode == 1)
    }

    /// A dry run shows the warnings a real run shows, and a real run shows each once (preflight's are not repeated).
    @Test func aDryRunShowsTheWarningsARealRunShowsEachOnce() async throws {
        let text = pipeline([work("bump", extra: #""warn": "Info.plist is not in the repository""#)])
        let (dry, dryReporter) = try await TestPipelines.run(text) { $0.dryRun = true }
        #expect(dry.statuses == ["bump=planned"])
        #expect(dryReporter.warnings == ["bump: Info.plist is not in the repository"])
        let (real, realReporter) = try await TestPipelines.run(text)
        #expect(real.statuses == ["bump=ok"])
        #expect(realReporter.warnings == ["bump: Info.plist is not in the repository"])
    }
}
