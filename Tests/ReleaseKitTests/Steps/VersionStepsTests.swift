import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps
@testable import ReleaseSupport
@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct VersionStepsTests {
        private func decode<S: Step>(_ type: S.Type, _ json: String) throws -> S {
            try S(options: decodeOptions(S.Options.self, json))
        }

        /// Every documented example is a full step object whose `with` decodes and passes `init(options:)`.
        @Test func documentedExamplesDecode() throws {
            func check<S: Step>(_ type: S.Type) throws {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(S.documentation.example.utf8)) as? [String: Any])
                #expect(object["uses"] as? String == S.kind)
                #expect(object["id"] is String)
                _ = try S(options: exampleOptions(S.self))
                let documented = Set(S.documentation.options.map(\.name))
                #expect(Set((object["with"] as? [String: Any] ?? [:]).keys).isSubset(of: documented))
            }
            try check(VersionReadStep.self)
            try check(VersionBumpStep.self)
            try check(GitBranchStep.self)
            try check(GitCommitStep.self)
            try check(GitTagStep.self)
            try check(GitPushStep.self)
            #expect(
                [VersionReadStep.kind, VersionBumpStep.kind, GitBranchStep.kind, GitCommitStep.kind, GitTagStep.kind, GitPushStep.kind]
                    == ["version.read", "version.bump", "git.branch", "git.commit", "git.tag", "git.push"])
        }

        @Test func badOptionsAreRejectedBeforeAnythingRuns() throws {
            #expect {
                try decode(VersionBumpStep.self, #"{"part": "huge"}"#)
            } throws: { ($0 as? OptionsDecoder.Failure)?.message == "'huge' is not one of major, minor, patch, build" }
            #expect(throws: StepError.invalidOption("version", "set 'part' or 'version', not both")) {
                try decode(VersionBumpStep.self, #"{"part": "patch", "version": "3.0.0"}"#)
            }
            #expect(throws: StepError.invalidOption("part", "set 'part' (major, minor, patch, build) or 'version'")) {
                try decode(VersionBumpStep.self, #"{"build": "increment"}"#)
            }
            #expect(throws: StepError.self) { try decode(VersionBumpStep.self, #"{"part": "patch", "build": "soon"}"#) }
            #expect(throws: StepError.self) { try decode(VersionBumpStep.self, #"{"version": "v3"}"#) }
            #expect(throws: StepError.invalidOption("name", "'release/3..0' is not a valid branch name")) {
                try decode(GitBranchStep.self, #"{"name": "release/3..0"}"#)
            }
            #expect(throws: StepError.invalidOption("message", "the commit message is empty")) {
                try decode(GitCommitStep.self, #"{"message": " "}"#)
            }
            #expect(throws: StepError.invalidOption("refs", "'--mirror' is not a ref")) {
                try decode(GitPushStep.self, #"{"refs": ["--mirror"]}"#)
            }
            #expect(try decode(VersionBumpStep.self, #"{"part": "patch", "build": 4321}"#).options.build == "4321")
        }

        @Test func readOutputsTheVersion() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            let step = try decode(VersionReadStep.self, #"{"project": "Demo.xcodeproj"}"#)
            let outputs = try await step.run(in: repository.context())
            #expect(outputs["version"] == .string("3.0.0"))
            #expect(outputs["build"] == .string("4146"))
            #expect(
                outputs["targets"]
                    == .list([
                        .string("Demo (Debug): 3.0.0 (4146)"), .string("Demo (Release): 3.0.0 (4146)"),
                        .string("ShareExtension (Debug): 2.9 (4146)"), .string("ShareExtension (Release): 2.9 (4146)"),
                    ]))
            let share = try decode(VersionReadStep.self, #"{"target": "ShareExtension", "configuration": "Debug"}"#)
            #expect(try await share.run(in: repository.context())["version"] == .string("2.9"))
            let missing = try decode(VersionReadStep.self, #"{"target": "Nope"}"#)
            await #expect(throws: StepError.invalidOption("target", "no target 'Nope' in 'Demo.xcodeproj' (targets: 'Demo', 'ShareExtension')")) {
                try await missing.verify(in: repository.context())
            }
        }

        @Test func bumpPlansExactDiffsAndPromisesOutputs() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            let step = try decode(VersionBumpStep.self, #"{"project": ".", "part": "minor", "build": "git-count"}"#)
            let pbxproj = repository.path + "/Demo.xcodeproj/project.pbxproj"
            let before = try Data(contentsOf: URL(fileURLWithPath: pbxproj))

            let plan = try await step.plan(in: repository.context(dryRun: true))
            #expect(try Data(contentsOf: URL(fileURLWithPath: pbxproj)) == before, "plan must not write")
            #expect(plan.outputs["version"] == .string("3.1.0"))
            #expect(plan.outputs["build"] == .string("1"), "one commit in the test repository")
            #expect(plan.outputs["previous_version"] == .string("3.0.0"))
            #expect(plan.outputs["previous_build"] == .string("4146"))
            #expect(plan.outputs["files"] == .list([.path(pbxproj)]))
            guard case .writeFile(let path, let diff?, _) = try #require(plan.effects.first) else {
                Issue.record("expected a writeFile effect with a diff")
                return
            }
            #expect(path == pbxproj)
            #expect(diff.hasPrefix("--- a/Demo.xcodeproj/project.pbxproj\n+++ b/Demo.xcodeproj/project.pbxproj\n@@ -233,9 +233,9 @@\n"))
            #expect(diff.contains("-\t\t\t\tMARKETING_VERSION = \"2.9\";\n+\t\t\t\tMARKETING_VERSION = \"3.1.0\";\n"))

            let events = VersioningEventLog()
            let outputs = try await step.run(in: repository.context(events: events))
            #expect(outputs == plan.outputs)
            let after = try String(contentsOfFile: pbxproj, encoding: .utf8)
            #expect(
                after
                    == String(decoding: before, as: UTF8.self)
                    .replacingOccurrences(of: "MARKETING_VERSION = 3.0.0;", with: "MARKETING_VERSION = 3.1.0;")
                    .replacingOccurrences(of: "MARKETING_VERSION = \"2.9\";", with: "MARKETING_VERSION = \"3.1.0\";")
                    .replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 4146;", with: "CURRENT_PROJECT_VERSION = 1;")
                    .replacingOccurrences(of: "CURRENT_PROJECT_VERSION = \"4146\";", with: "CURRENT_PROJECT_VERSION = \"1\";"))
            #expect(events.events.contains(.log("3.0.0 (4146) -> 3.1.0 (1)", .stdout)))
        }

        /// `targets`: only the login-item helper moves; the read's warnings (missing Pods files) reach the log.
        @Test func bumpOfChosenTargets() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "real-world-traps").source)
            defer { repository.remove() }
            let step = try decode(VersionBumpStep.self, #"{"version": "1.1", "build": "2", "targets": ["TrapsHelper"]}"#)
            let events = VersioningEventLog()
            let outputs = try await step.run(in: repository.context(events: events))
            #expect(outputs["previous_version"] == .string("1.0"))
            #expect(outputs["files"] == .list([.path(repository.path + "/Traps.xcodeproj/project.pbxproj")]))
            let report = try VersionReader.read(in: repository.path).report
            #expect(Set(report.entries.filter { $0.version == "1.1" }.map(\.target)) == ["TrapsHelper"])
            #expect(report.version == "26.07.4")
            let warnings = events.events.compactMap { event -> String? in
                if case .warning(let message) = event { return message }
                return nil
            }
            // One line per cause: the three CocoaPods base configurations are one line that counts them.
            #expect(
                warnings == [
                    "Config/Base.xcconfig:2: included file 'Config/Secrets.xcconfig' does not exist; no version or build depends on it",
                    "3 files under Pods/ do not exist ('Pods/Target Support Files/Pods-Traps/Pods-Traps.debug.xcconfig' and 2 more): 'pod install' writes them; what they set is not read until then",
                ])
            #expect(throws: StepError.invalidOption("targets", "a version file has no targets")) {
                try decode(VersionBumpStep.self, #"{"file": "VERSION", "part": "patch", "targets": ["App"]}"#)
            }
        }

        /// Issue 23 item 6 f: a bump's `plan` (what a dry run shows) gives the warnings its `run` gives.
        @Test func bumpPlanGivesTheWarningsRunGives() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "real-world-traps").source)
            defer { repository.remove() }
            let step = try decode(VersionBumpStep.self, #"{"version": "1.1", "build": "2", "targets": ["TrapsHelper"]}"#)
            func warnings(_ log: VersioningEventLog) -> [String] {
                log.events.compactMap { event -> String? in
                    if case .warning(let message) = event { return message }
                    return nil
                }
            }
            let planned = VersioningEventLog()
            _ = try await step.plan(in: repository.context(dryRun: true, events: planned))
            let ran = VersioningEventLog()
            _ = try await step.run(in: repository.context(events: ran))
            #expect(warnings(planned).count == 2)
            #expect(warnings(planned) == warnings(ran))
        }

        /// Issue 35: in a pipeline whose project generation writes `Pods/` (a `project.generate` of CocoaPods), the bump
        /// says nothing of the files it is about to write; the other causes stay.
        @Test func bumpIsSilentAboutFilesThePipelinesGenerationWrites() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "real-world-traps").source)
            defer { repository.remove() }
            let step = try decode(VersionBumpStep.self, #"{"version": "1.1", "build": "2", "targets": ["TrapsHelper"]}"#)
            let events = VersioningEventLog()
            _ = try await step.plan(in: repository.context(dryRun: true, generated: [repository.path + "/Pods", repository.path + "/Traps.xcworkspace"], events: events))
            let warnings = events.events.compactMap { event -> String? in
                if case .warning(let message) = event { return message }
                return nil
            }
            #expect(warnings == ["Config/Base.xcconfig:2: included file 'Config/Secrets.xcconfig' does not exist; no version or build depends on it"])
        }

        @Test func gitStepsBranchCommitTagAndPush() async throws {
            let repository = try await VersioningGitRepository()
            defer { repository.remove() }
            let remote = TestTemporary.root + "/release-remote-\(UUID().uuidString).git"
            defer { try? FileManager.default.removeItem(atPath: remote) }
            _ = try await ProcessRunner.run(ProcessRequest(arguments: ["git", "init", "-q", "--bare", remote], directory: "/", environment: ProcessInfo.processInfo.environment)) {
                _, _ in
            }
            try await repository.git("remote", "add", "origin", remote)

            let branch = try decode(GitBranchStep.self, #"{"name": "release/3.0.1"}"#)
            let branchPlan = try await branch.plan(in: repository.context(dryRun: true))
            #expect(branchPlan.effects == [.command(argv: ["git", "checkout", "-b", "release/3.0.1"], directory: nil)])
            try await branch.verify(in: repository.context())
            #expect(try await branch.run(in: repository.context())["branch"] == .string("release/3.0.1"))
            #expect(try await repository.git("rev-parse", "--abbrev-ref", "HEAD") == "release/3.0.1")
            await #expect(throws: StepError.failed("branch 'release/3.0.1' already exists")) {
                try await branch.verify(in: repository.context())
            }

            try "3.0.1\n".write(toFile: repository.path + "/VERSION", atomically: true, encoding: .utf8)
            let commit = try decode(GitCommitStep.self, #"{"message": "Bump version to 3.0.1 (4321)", "paths": ["VERSION"]}"#)
            let commitPlan = try await commit.plan(in: repository.context(dryRun: true))
            #expect(
                commitPlan.effects == [
                    .command(argv: ["git", "add", "--", repository.path + "/VERSION"], directory: nil),
                    .command(argv: ["git", "commit", "-m", "Bump version to 3.0.1 (4321)", "--", repository.path + "/VERSION"], directory: nil),
                ])
            let committed = try await commit.run(in: repository.context())
            #expect(committed["sha"] == .string(try await repository.git("rev-parse", "HEAD")))
            #expect(try await repository.git("log", "-1", "--format=%s") == "Bump version to 3.0.1 (4321)")
            #expect(try await repository.git("show", "--name-only", "--format=", "HEAD") == "VERSION")

            let tag = try decode(GitTagStep.self, #"{"name": "v3.0.1-4321", "message": "Release 3.0.1"}"#)
            #expect(
                try await tag.plan(in: repository.context(dryRun: true)).effects
                    == [.command(argv: ["git", "tag", "-a", "-m", "Release 3.0.1", "v3.0.1-4321"], directory: nil)])
            _ = try await tag.run(in: repository.context())
            #expect(try await repository.git("cat-file", "-t", "v3.0.1-4321") == "tag")
            // A re-run finds its own tag on the commit it would tag: nothing to do, nothing to fail.
            try await tag.verify(in: repository.context())
            #expect(try await tag.run(in: repository.context())["tag"] == .string("v3.0.1-4321"))
            // A commit later, the same tag name belongs to another commit.
            try await repository.git("commit", "-q", "--allow-empty", "-m", "later")
            await #expect(throws: StepError.self) { try await tag.verify(in: repository.context()) }
            try await repository.git("reset", "-q", "--hard", "HEAD~1")

            // A re-run whose bump changed nothing commits nothing and reports HEAD; an empty list commits nothing.
            let again = try await commit.run(in: repository.context())
            #expect(again["sha"] == committed["sha"])
            try "scratch\n".write(toFile: repository.path + "/untracked.txt", atomically: true, encoding: .utf8)
            let none = try decode(GitCommitStep.self, #"{"message": "Nothing", "paths": []}"#)
            #expect(try await none.run(in: repository.context())["sha"] == committed["sha"])
            #expect(try await repository.git("status", "--porcelain") == "?? untracked.txt")
            try FileManager.default.removeItem(atPath: repository.path + "/untracked.txt")

            let push = try decode(GitPushStep.self, #"{"set_upstream": true, "tags": true}"#)
            try await push.verify(in: repository.context())
            #expect(
                try await push.plan(in: repository.context(dryRun: true)).effects
                    == [.command(argv: ["git", "push", "-u", "--tags", "origin", "HEAD"], directory: nil)])
            let pushed = try await push.run(in: repository.context())
            #expect(pushed["refs"] == .list([.string("release/3.0.1")]))
            let remoteHead = try await ProcessRunner.run(
                ProcessRequest(arguments: ["git", "rev-parse", "refs/heads/release/3.0.1"], directory: remote, environment: ProcessInfo.processInfo.environment)
            ) { _, _ in }
            #expect(remoteHead.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == committed["sha"]?.text)

            let noRemote = try decode(GitPushStep.self, #"{"remote": "upstream"}"#)
            await #expect(throws: StepError.failed("no git remote 'upstream'")) { try await noRemote.verify(in: repository.context()) }
        }
    }
}
