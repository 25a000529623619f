import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps

/// A run that did not finish says what it left changed and how to resume (issue 23, item 3).
@Suite struct RunAftermathTests {
    private func result(_ steps: [StepResult], dryRun: Bool = false, preflightFailed: Bool = false) -> RunResult {
        RunResult(
            pipeline: "p", file: "Pipelines/p.json", profile: "release", branch: "main", dryRun: dryRun, interrupted: false,
            preflightFailed: preflightFailed, startedAt: Date(timeIntervalSince1970: 0), duration: 1, steps: steps)
    }

    private let steps = [
        StepResult(
            id: "bump", kind: "version.bump", gate: false, status: .succeeded, attempts: 1,
            outputs: [
                "version": .string("7.1.4"), "files": .list([.path("/r/App.xcodeproj/project.pbxproj"), .path("/r/Info.plist")]),
            ]),
        StepResult(id: "check", kind: "gate.versions", gate: true, status: .succeeded, attempts: 1),
        StepResult(
            id: "commit", kind: "git.commit", gate: false, status: .succeeded, attempts: 1,
            outputs: ["sha": .string("0123456789abcdef0123"), "message": .string("Bump")]),
        StepResult(id: "tag", kind: "git.tag", gate: false, status: .succeeded, attempts: 1, outputs: ["tag": .string("v7.1.4")]),
        StepResult(id: "archive", kind: "xcode.archive", gate: false, status: .failed, message: "exit 65", attempts: 1),
    ]

    @Test func aFailedRunListsWhatItChangedAndTheResumeCommand() throws {
        let aftermath = try #require(RunAftermath(result(steps), resumeCommand: ["release", "run", "my pipeline.json", "--profile", "release", "--resume"]))
        #expect(
            aftermath.text == """
                left changed by the steps that finished:
                  bump (version.bump): /r/App.xcodeproj/project.pbxproj, /r/Info.plist
                  commit (git.commit): commit 0123456789ab
                  tag (git.tag): tag v7.1.4
                to resume once the cause is fixed (steps that succeeded are skipped): release run 'my pipeline.json' --profile release --resume

                """)
        let relative = RunAftermath(result(steps), resumeCommand: ["release", "run", "--resume"], workingDirectory: "/r")
        #expect(relative?.changes.first?.items == ["App.xcodeproj/project.pbxproj", "Info.plist"])
    }

    @Test func nothingToResumeAfterSuccessDryRunsOrPreflight() {
        let succeeded = steps.map { step -> StepResult in
            var step = step
            step.status = .succeeded
            return step
        }
        #expect(RunAftermath(result(succeeded), resumeCommand: ["release", "run", "--resume"]) == nil)
        #expect(RunAftermath(result(steps, dryRun: true), resumeCommand: ["release", "run", "--resume"]) == nil)
        #expect(RunAftermath(result(steps, preflightFailed: true), resumeCommand: ["release", "run", "--resume"]) == nil)
        let nothing = RunAftermath(result([steps[4]]), resumeCommand: ["release", "run", "--resume"])
        #expect(
            nothing?.text == "no finished step left a file, commit or tag changed\nto resume once the cause is fixed (steps that succeeded are skipped): release run --resume\n")
    }
}
