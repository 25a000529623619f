import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct ShellStepTests {
    @Test func keepsTheRealExitStatusAndLogsTheCommand() async throws {
        let text = #"{"version": 1, "steps": [{"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "echo 'a b'; exit 42"]}}]}"#
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.step("s")?.exitStatus == 42)
        #expect(result.step("s")?.message == #"'sh -c 'echo '\''a b'\''; exit 42'' exited with status 42"#)
        #expect(reporter.logLines.first == "s: $ sh -c 'echo '\\''a b'\\''; exit 42'")
        #expect(reporter.logLines.contains("s: a b"))
    }

    @Test func shellStringsRunThroughSh() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let text =
            #"{"version": 1, "steps": [{"id": "s", "uses": "shell", "with": {"run": "echo $GREETING > out.txt && pwd", "shell": true, "cwd": "\#(directory)", "env": {"GREETING": "hi"}}}]}"#
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.exitCode == 0)
        #expect(try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == "hi\n")
        // `pwd` prints the folder as the system resolves it: on a Mac, /private/var/… for a $TMPDIR of /var/….
        #expect(result.step("s")?.outputs["stdout"] == .string(Platform.canonicalPath(directory) ?? directory))
    }

    @Test func outputsComeFromTheReleaseOutputFile() async throws {
        let script = "printf 'version=3.0.1\\nnotes<<EOF\\nline one\\nline two\\nEOF\\n' >> $RELEASE_OUTPUT"
        let text = #"{"version": 1, "steps": [{"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "\#(script)"]}}]}"#
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.step("s")?.outputs["version"] == .string("3.0.1"))
        #expect(result.step("s")?.outputs["notes"] == .string("line one\nline two"))
    }

    @Test func createsBecomesArtifactsAndIsCheckedAfterTheRun() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let good =
            #"{"version": 1, "steps": [{"id": "s", "uses": "shell", "with": {"run": ["sh", "-c", "printf abc > \#(directory)/a.txt"], "creates": ["\#(directory)/a.txt"]}}]}"#
        let (result, _) = try await TestPipelines.run(good)
        #expect(
            result.step("s")?.artifacts == [
                Artifact(
                    path: directory + "/a.txt", size: 3,
                    sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            ])
        let bad = #"{"version": 1, "steps": [{"id": "s", "uses": "shell", "with": {"run": ["true"], "creates": ["\#(directory)/missing"]}}]}"#
        let (failed, _) = try await TestPipelines.run(bad)
        #expect(failed.step("s")?.message == "the command succeeded but did not create '\(directory)/missing' (listed in 'creates')")
    }

    @Test func verifyFindsMissingCommandsBeforeAnythingRuns() async throws {
        let text =
            #"{"version": 1, "steps": [{"id": "first", "uses": "shell", "with": {"run": ["true"]}}, {"id": "archive", "uses": "shell", "with": {"run": ["xcodebuild-not-here", "archive"]}}]}"#
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.statuses == ["first=cancelled", "archive=failed"])
        #expect(result.step("archive")?.message == "command not found: 'xcodebuild-not-here'")
    }

    @Test func downstreamVerifyAcceptsPathsAnUpstreamStepPromises() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let text =
            #"{"version": 1, "steps": [{"id": "make", "uses": "shell", "with": {"run": ["sh", "-c", "mkdir -p \#(directory)/out && echo ok > \#(directory)/out/x"], "creates": ["\#(directory)/out"]}}, {"id": "use", "uses": "shell", "needs": ["make"], "with": {"run": ["cat", "x"], "cwd": "\#(directory)/out"}}]}"#
        let (result, reporter) = try await TestPipelines.run(text)
        #expect(result.exitCode == 0)
        #expect(reporter.logLines.contains("use: ok"))
    }
}
