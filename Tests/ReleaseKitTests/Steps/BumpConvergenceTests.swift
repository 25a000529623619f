import Foundation
import Testing

@testable import ReleaseSteps
@testable import ReleaseVersioning

extension VersioningTests {
    /// `version.bump` run again on a checkout that carries its bump keeps it (issue 23, item 3).
    @Suite struct BumpConvergenceTests {
        private func bump(_ json: String) throws -> VersionBumpStep {
            try VersionBumpStep(options: decodeOptions(VersionBumpStep.Options.self, json))
        }

        private func logs(_ events: VersioningEventLog) -> [String] {
            events.events.compactMap { event -> String? in
                if case .log(let text, _) = event { return text }
                return nil
            }
        }

        private static let patch = #"{"project": "Demo.xcodeproj", "part": "patch", "build": "increment"}"#

        /// Uncommitted (a failed run), then committed (HEAD is the bump commit): kept, same outputs, same bytes;
        /// once another commit comes on top, the next release bumps again.
        @Test func aReRunKeepsTheBumpUntilTheNextRelease() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            let pbxproj = repository.path + "/Demo.xcodeproj/project.pbxproj"
            let step = try bump(Self.patch)
            let first = try await step.run(in: repository.context())
            #expect(first["version"] == .string("3.0.1"))
            #expect(first["build"] == .string("4147"))
            let bumped = try Data(contentsOf: URL(fileURLWithPath: pbxproj))

            let events = VersioningEventLog()
            let again = try await step.run(in: repository.context(events: events))
            #expect(again == first, "a re-run gives the first run's outputs, files included, so git.commit commits them")
            #expect(again["previous_version"] == .string("3.0.0"))
            #expect(again["previous_build"] == .string("4146"))
            #expect(again["files"] == .list([.path(pbxproj)]))
            #expect(try Data(contentsOf: URL(fileURLWithPath: pbxproj)) == bumped)
            #expect(logs(events) == [#"already at 3.0.1 (4147) in the working tree (not committed yet): kept, the same commit is the same build ("converge": false bumps again)"#])

            try await repository.git("commit", "-q", "-am", "Bump version to 3.0.1 (4147)")
            let head = try await repository.git("rev-parse", "HEAD")
            let committedEvents = VersioningEventLog()
            let committed = try await step.run(in: repository.context(events: committedEvents))
            #expect(committed == first)
            #expect(
                logs(committedEvents) == [#"already at 3.0.1 (4147) in HEAD's commit \#(head.prefix(12)): kept, the same commit is the same build ("converge": false bumps again)"#]
            )
            // A dry run says the same and writes nothing.
            let plan = try await step.plan(in: repository.context(dryRun: true))
            #expect(plan.outputs == first)
            #expect(
                plan.effects == [.note(#"already at 3.0.1 (4147) in HEAD's commit \#(head.prefix(12)): kept, the same commit is the same build ("converge": false bumps again)"#)])

            try await repository.git("commit", "-q", "--allow-empty", "-m", "Next feature")
            let next = try await step.run(in: repository.context())
            #expect(next["version"] == .string("3.0.2"))
            #expect(next["build"] == .string("4148"))
        }

        @Test func convergeFalseBumpsEveryTime() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            let step = try bump(#"{"project": "Demo.xcodeproj", "part": "patch", "converge": false}"#)
            _ = try await step.run(in: repository.context())
            let second = try await step.run(in: repository.context())
            #expect(second["version"] == .string("3.0.2"))
            #expect(second["previous_version"] == .string("3.0.1"))
        }

        /// The release model (issue 34): on `release/3.0.0` the marketing version never moves, whatever `part` says; a
        /// commit that has no build gets the next build number, and the same commit run again is the same build.
        @Test func aReleaseBranchMovesOnlyTheBuildAndEachCommitGetsOne() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            try await repository.git("checkout", "-q", "-b", "release/3.0.0")
            let events = VersioningEventLog()
            let first = try await bump(Self.patch).run(in: repository.context(events: events))
            #expect(first["version"] == .string("3.0.0"))
            #expect(first["build"] == .string("4147"))
            #expect(logs(events).first == "on release/3.0.0 the marketing version stays 3.0.0 ('release bump' changes it): only the build number moves")
            try await repository.git("commit", "-q", "-am", "Release 3.0.0 (4147)")

            // The same commit again: the same build, nothing written.
            let again = try await bump(Self.patch).run(in: repository.context())
            #expect(again["build"] == .string("4147"))
            #expect(try await repository.git("status", "--porcelain") == "")

            // A fix on the branch is a new commit: a new build of the same version.
            try "fix\n".write(toFile: repository.path + "/FIX", atomically: true, encoding: .utf8)
            try await repository.git("add", "FIX")
            try await repository.git("commit", "-q", "-m", "fix: crash on launch")
            let fix = try await bump(Self.patch).run(in: repository.context())
            #expect(fix["version"] == .string("3.0.0"))
            #expect(fix["build"] == .string("4148"))
        }

        /// A build number a tag names was used before (perhaps on another branch, or in a build App Store Connect was
        /// never sent): a new build goes above it. A number the pipeline gives stands.
        @Test func aNewBuildGoesAboveEveryBuildTheTagsName() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            try await repository.git("tag", "v2.9.0-4150")
            try await repository.git("tag", "testers/3.0.0-4152_2014-10-22T06-01-18Z")
            try await repository.git("tag", "release-notes-fix")
            let outputs = try await bump(#"{"project": "Demo.xcodeproj", "part": "build"}"#).run(in: repository.context())
            #expect(outputs["build"] == .string("4153"))
            try await repository.git("checkout", "-q", "--", ".")
            let untagged = try await bump(#"{"project": "Demo.xcodeproj", "part": "build", "tags": false}"#).run(in: repository.context())
            #expect(untagged["build"] == .string("4147"))
            try await repository.git("checkout", "-q", "--", ".")
            let exact = try await bump(#"{"project": "Demo.xcodeproj", "part": "build", "build": "5000"}"#).run(in: repository.context())
            #expect(exact["build"] == .string("5000"))
        }

        /// A release branch names the version it releases: a bump on a branch the project is not at is refused (the
        /// version is cut with `release bump`) unless the `part` bump makes exactly that version (a branch made by hand:
        /// the first run cuts it); an explicit `version` is the pipeline's own choice.
        @Test func aReleaseBranchOfAnotherVersionIsRefused() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            try await repository.git("checkout", "-q", "-b", "release/3.0.1")
            let cut = try await bump(Self.patch).run(in: repository.context())
            #expect(cut["version"] == .string("3.0.1"))
            try await repository.git("checkout", "-q", "--", ".")
            try await repository.git("checkout", "-q", "-b", "release/3.2.0")
            for json in [Self.patch, #"{"project": "Demo.xcodeproj", "part": "build"}"#] {
                await #expect {
                    try await bump(json).run(in: repository.context())
                } throws: { error in
                    "\(error)".contains("branch 'release/3.2.0' names version 3.2.0 but the project is at 3.0.0: the marketing version changes only through 'release bump'")
                }
            }
            let exact = try await bump(#"{"project": "Demo.xcodeproj", "version": "3.2.0"}"#).run(in: repository.context())
            #expect(exact["version"] == .string("3.2.0"))
        }

        /// Detached (a GitLab job, `CI_COMMIT_BRANCH`): the CI's branch is the branch the model reads.
        @Test func aDetachedReleaseBranchIsReadFromTheCI() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            try await repository.git("checkout", "-q", "--detach")
            let outputs = try await bump(Self.patch).run(in: repository.context(environment: ["CI_COMMIT_BRANCH": "release/3.0.0"]))
            #expect(outputs["version"] == .string("3.0.0"))
            #expect(outputs["build"] == .string("4147"))
        }

        @Test(
            arguments: [
                ("v3.0.0-4147", "4147"), ("v3.0.0-4321_2014-10-22T06-01-18Z", "4321"), ("testers/3.0.0-4147", "4147"),
                ("release/7.75-7.75.0.3", "7.75.0.3"), ("v1.2", nil), ("release-notes-fix", nil), ("v2-5", nil), ("build-12", nil),
            ] as [(String, String?)])
        func tagNamesGiveTheirBuilds(tag: String, build: String?) {
            #expect(ReleaseHistory.builds(inTags: [tag]) == (build.map { [$0] } ?? []))
        }

        /// A `version` below the project's is refused unless `allow_downgrade` (issue 34 item 10).
        @Test func aDowngradeIsRefusedUnlessAllowed() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            await #expect {
                try await bump(#"{"project": "Demo.xcodeproj", "version": "2.9.0"}"#).run(in: repository.context())
            } throws: { error in
                "\(error)" == #"option 'version': the new version '2.9.0' is lower than the current '3.0.0': set "allow_downgrade": true to go back"#
            }
            #expect(try await repository.git("status", "--porcelain") == "")
            let allowed = try await bump(#"{"project": "Demo.xcodeproj", "version": "2.9.0", "allow_downgrade": true}"#).run(in: repository.context())
            #expect(allowed["version"] == .string("2.9.0"))
        }

        @Test func appStoreConnectsNumbersAreTakenAboveAndAcrossVersions() throws {
            let history = ReleaseHistory(appStoreBuilds: ["40", "42", "43"], appStoreVersionBuilds: ["42"], tagBuilds: ["41"])
            #expect(history.highest == "43")
            #expect(try history.next(above: "12") == "44")
            #expect(try history.next(above: "50") == "50")
            #expect(!history.isTaken("42"), "this version's own build: shipped, not taken")
            #expect(history.isTaken("43"), "another version has it")
            #expect(history.isTaken("41"), "below the highest: Apple would not take it as the latest")
            #expect(!history.isTaken("44"))
        }

        /// The change found must be this bump: a patch bump in the tree is not a minor one, and an exact version
        /// keeps only when the project is at it (the build alone may have moved).
        @Test func onlyThisReleasesBumpIsKept() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            _ = try await bump(Self.patch).run(in: repository.context())
            let minor = try await bump(#"{"project": "Demo.xcodeproj", "part": "minor", "build": "increment"}"#).run(in: repository.context())
            #expect(minor["version"] == .string("3.1.0"))
            #expect(minor["build"] == .string("4148"))

            let exact = try bump(#"{"project": "Demo.xcodeproj", "version": "3.1.0", "build": "increment"}"#)
            let kept = try await exact.run(in: repository.context())
            #expect(kept["build"] == .string("4148"), "the exact version is there and the build moved: kept")
            #expect(kept["previous_version"] == .string("3.0.0"))
            let other = try await bump(#"{"project": "Demo.xcodeproj", "version": "4.0", "build": "increment"}"#).run(in: repository.context())
            #expect(other["version"] == .string("4.0"))
            #expect(other["build"] == .string("4149"))
        }

        @Test func branchNamesAndDiffLines() {
            #expect(BumpConvergence.versionNamed(byBranch: "release/7.1.4") == SemanticVersion("7.1.4"))
            #expect(BumpConvergence.versionNamed(byBranch: "hotfix/v7.1") == SemanticVersion("7.1"))
            #expect(BumpConvergence.versionNamed(byBranch: "7.1.4") == nil)
            #expect(BumpConvergence.versionNamed(byBranch: "release/next") == nil)
            #expect(BumpConvergence.hunkRange("@@ -12 +12 @@ x") ?? (0, 0) == (12, 1))
            #expect(BumpConvergence.hunkRange("@@ -3,0 +4,2 @@") ?? (0, 0) == (4, 2))
            #expect(BumpConvergence.oldValue(old: "\tMARKETING_VERSION = \"2.9\";", after: "\tMARKETING_VERSION = \"") == "2.9")
            #expect(BumpConvergence.oldValue(old: "3.0.0+4146", after: "") == "3.0.0")
            #expect(BumpConvergence.oldValue(old: "VERSION = 1", after: "MARKETING_VERSION = ") == nil)
        }
    }
}
