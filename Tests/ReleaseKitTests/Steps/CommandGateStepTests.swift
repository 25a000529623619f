import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct CommandGateStepTests {
    static func script(_ text: String) -> [String] { ["sh", "-c", text] }

    @Test func passesWhenTheCommandSucceedsAndPrintsWhatIsRequired() async throws {
        let text = GatePipelines.text([
            [
                "id": "validate", "uses": "gate.command", "gate": true,
                "with": [
                    "run": Self.script("echo 'No errors validating archive at Demo.ipa'"),
                    "fail_on": ["ERROR ITMS-[0-9]+"], "require": ["No errors validating"],
                ],
            ]
        ])
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.statuses == ["validate=ok"])
        #expect(result.step("validate")?.outputs == ["exit_code": .number(0), "stdout": .string("No errors validating archive at Demo.ipa")])
        #expect(reporter.logLines.contains("validate: No errors validating archive at Demo.ipa"))
    }

    @Test func rejectsANonZeroExit() async throws {
        let result = try await GatePipelines.runGate("gate.command", ["run": Self.script("echo failing; exit 3")])
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.exitCode == 2)
        #expect(result.step("gate")?.message == "'sh -c 'echo failing; exit 3'' exited with status 3")
    }

    @Test func rejectsAFailOnLineEvenWithExitZeroOnStandardError() async throws {
        let command = "echo 'Validating…'; echo 'ERROR ITMS-90062: This bundle is invalid.' >&2; exit 0"
        let result = try await GatePipelines.runGate("gate.command", ["run": Self.script(command), "fail_on": ["ERROR ITMS-[0-9]+"]])
        #expect(result.statuses == ["gate=rejected"])
        #expect(
            result.step("gate")?.message
                == "'\(ShellQuoting.commandLine(Self.script(command)))' standard error line 1 matches fail_on 'ERROR ITMS-[0-9]+': 'ERROR ITMS-90062: This bundle is invalid.'")
    }

    @Test func rejectsAMissingRequiredLine() async throws {
        let result = try await GatePipelines.runGate("gate.command", ["run": ["echo", "done"], "require": ["No errors", "(?i)success"]])
        #expect(
            result.step("gate")?.message == """
                - 'echo done' printed no line matching require 'No errors'
                - 'echo done' printed no line matching require '(?i)success'
                """)
    }

    @Test func masksSecretsInTheCommandOutputAndMessage() async throws {
        let text = GatePipelines.text([
            [
                "id": "gate", "uses": "gate.command", "gate": true,
                "with": ["run": ["sh", "-c", "echo \"password is $0\"; exit 1", "${secrets.APP_PASSWORD}"]],
            ]
        ])
        let (result, reporter) = try await TestPipelines.run(text, environment: ["APP_PASSWORD": "hunter2-secret"])
        #expect(result.step("gate")?.message == "'sh -c 'echo \"password is $0\"; exit 1' ***' exited with status 1")
        #expect(reporter.logLines.contains("gate: password is ***"))
        #expect(!reporter.logLines.joined().contains("hunter2-secret"))
    }

    @Test func dryRunsReallyRunIt() async throws {
        let text = GatePipelines.text([["id": "gate", "uses": "gate.command", "gate": true, "with": ["run": ["false"]]]])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.dryRun = true })
        #expect(result.statuses == ["gate=rejected"])
    }

    @Test func rejectsBadOptions() {
        #expect(throws: StepError.invalidOption("run", "the command is empty")) { try CommandGateStep(options: .with { $0.run = [] }) }
        #expect(throws: (any Error).self) {
            try CommandGateStep(
                options: .with {
                    $0.run = ["true"]; $0.failOn = ["(unclosed"]
                })
        }
        #expect(throws: StepError.invalidOption("require", "a pattern is empty")) {
            try CommandGateStep(
                options: .with {
                    $0.run = ["true"]; $0.require = [""]
                })
        }
    }
}
