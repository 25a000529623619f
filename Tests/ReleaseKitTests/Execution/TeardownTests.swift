import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning

/// DESIGN §5: what a step set up on the machine is undone at the end of the run, newest first, whatever happened.
@Suite struct TeardownTests {
    let log = TestPipelines.temporaryDirectory() + "/machine.log"

    private func pipeline(_ steps: [String]) -> String {
        #"{"version": 1, "steps": ["# + steps.joined(separator: ", ") + "]}"
    }

    private func setup(_ id: String, needs: [String] = [], extra: String = "") -> String {
        let needsText = needs.isEmpty ? "" : #", "needs": [\#(needs.map { "\"\($0)\"" }.joined(separator: ", "))]"#
        return #"{"id": "\#(id)", "uses": "test.setup"\#(needsText), "with": {"log": "\#(log)"\#(extra)}}"#
    }

    private var lines: [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private func teardownEvents(_ reporter: RecordingReporter) -> [String] {
        reporter.events.compactMap {
            if case .teardownFinished(let step, let description, let error) = $0 { return "\(step): \(description)" + (error.map { " (\($0))" } ?? "") }
            return nil
        }
    }

    @Test func undoesInReverseOrderAfterSuccess() async throws {
        let (result, reporter) = try await TestPipelines.run(pipeline([setup("keychain"), setup("profiles", needs: ["keychain"])]))
        #expect(result.exitCode == 0)
        #expect(lines == ["set up keychain", "set up profiles", "undo profiles", "undo keychain"])
        #expect(teardownEvents(reporter) == ["profiles: undo profiles", "keychain: undo keychain"])
    }

    @Test func undoesAfterAFailedStep() async throws {
        let (result, _) = try await TestPipelines.run(pipeline([setup("keychain"), setup("archive", needs: ["keychain"], extra: #", "fail": true"#)]))
        #expect(result.exitCode == 1)
        #expect(result.statuses == ["keychain=ok", "archive=failed"])
        #expect(lines == ["set up keychain", "set up archive", "undo archive", "undo keychain"])
    }

    @Test func undoesAfterAnInterrupt() async throws {
        let log = self.log
        let (result, _) = try await TestPipelines.run(
            pipeline([setup("keychain"), setup("archive", needs: ["keychain"], extra: #", "milliseconds": 20000"#)]),
            onStart: { engine in
                Task {
                    while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("set up archive") {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    engine.interrupt()
                }
            })
        #expect(result.exitCode == 130)
        #expect(result.statuses == ["keychain=ok", "archive=cancelled"])
        #expect(lines == ["set up keychain", "set up archive", "undo archive", "undo keychain"])
    }

    @Test func aFailedUndoFailsTheRunAndTheOthersStillRun() async throws {
        let (result, reporter) = try await TestPipelines.run(pipeline([setup("keychain"), setup("profiles", needs: ["keychain"], extra: #", "fail_teardown": true"#)]))
        #expect(result.statuses == ["keychain=ok", "profiles=ok"])
        #expect(result.exitCode == 1)
        #expect(result.teardownFailures == ["profiles: undo profiles: cannot undo profiles"])
        #expect(lines == ["set up keychain", "set up profiles", "undo profiles", "undo keychain"])
        #expect(teardownEvents(reporter) == ["profiles: undo profiles (cannot undo profiles)", "keychain: undo keychain"])
    }

    @Test func aDryRunSetsNothingUpAndUndoesNothing() async throws {
        let (result, reporter) = try await TestPipelines.run(pipeline([setup("keychain")]), configure: { $0.dryRun = true })
        #expect(result.exitCode == 0)
        #expect(lines.isEmpty)
        #expect(teardownEvents(reporter).isEmpty)
    }
}
