import Foundation
import Testing

@testable import ReleaseKit

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
            #expect(logs(events) == [#"already at 3.0.1 (4147) in the working tree (not committed yet): kept ("converge": false bumps again)"#])

            try await repository.git("commit", "-q", "-am", "Bump version to 3.0.1 (4147)")
            let head = try await repository.git("rev-parse", "HEAD")
            let committedEvents = VersioningEventLog()
            let committed = try await step.run(in: repository.context(events: committedEvents))
            #expect(committed == first)
            #expect(logs(committedEvents) == [#"already at 3.0.1 (4147) in HEAD's commit \#(head.prefix(12)): kept ("converge": false bumps again)"#])
            // A dry run says the same and writes nothing.
            let plan = try await step.plan(in: repository.context(dryRun: true))
            #expect(plan.outputs == first)
            #expect(plan.effects == [.note(#"already at 3.0.1 (4147) in HEAD's commit \#(head.prefix(12)): kept ("converge": false bumps again)"#)])

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

        /// `release bump` leaves the project at the version its branch names: the pipeline's bump keeps it.
        @Test func aReleaseBranchAtItsVersionIsKept() async throws {
            let repository = try await VersioningGitRepository(copying: XcodeFixture(name: "pbxproj-per-target").source)
            defer { repository.remove() }
            try await repository.git("checkout", "-q", "-b", "release/3.0.0")
            let events = VersioningEventLog()
            let outputs = try await bump(Self.patch).run(in: repository.context(events: events))
            #expect(outputs["version"] == .string("3.0.0"))
            #expect(outputs["build"] == .string("4146"))
            #expect(outputs["files"] == .list([]))
            #expect(logs(events) == [#"already at 3.0.0 (4146) on release/3.0.0: kept ("converge": false bumps again)"#])
            #expect(try await repository.git("status", "--porcelain") == "")
            // A branch naming another version does not count.
            try await repository.git("checkout", "-q", "-b", "release/3.0.1")
            #expect(try await bump(Self.patch).run(in: repository.context())["version"] == .string("3.0.1"))
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
