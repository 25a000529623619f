import Foundation
import Rehearsal
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps

/// `notes`: release notes from git history (grouped by Conventional Commit type, pull requests linked, co-authors
/// kept, cut for TestFlight) or from GitHub's generate-notes API, with every failure's message.
@Suite struct NotesStepTests {
    static func step(_ json: String) throws -> NotesStep {
        try NotesStep(options: decodeOptions(NotesStep.Options.self, json))
    }

    /// A repository with a `v1.0.0` tag, then a conventional history on a github.com remote.
    static func conventionalRepository() async throws -> VersioningGitRepository {
        let repo = try await VersioningGitRepository()
        try await repo.git("tag", "v1.0.0")
        try await repo.git("remote", "add", "origin", "git@github.com:octo/app.git")
        try await repo.git(
            "commit", "-q", "--allow-empty", "-m", "feat(login): sign in with Apple (#14)\n\nCo-authored-by: Jane Doe <jane@example.com>\nCo-authored-by: Li Wei <li@example.com>")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "fix: crash on launch when offline")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "docs: explain the release pipeline")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "perf(zip): deflate on every core")
        try await repo.git("checkout", "-q", "-b", "layout")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "fix(ui): clipped labels")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "wip")
        try await repo.git("checkout", "-q", "main")
        try await repo.git("merge", "-q", "--no-ff", "layout", "-m", "Merge pull request #20 from octo/layout\n\nfix(ui): clipped labels on small screens")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "feat!: drop iOS 15\n\nBREAKING CHANGE: the app needs iOS 16 or later.")
        return repo
    }

    static let groupedMarkdown = """
        ### Breaking changes
        - the app needs iOS 16 or later.

        ### Features
        - **login:** sign in with Apple ([#14](https://github.com/octo/app/pull/14)), co-authored by Jane Doe, Li Wei

        ### Bug fixes
        - **ui:** clipped labels on small screens ([#20](https://github.com/octo/app/pull/20))
        - crash on launch when offline

        ### Performance
        - **zip:** deflate on every core

        ### Other changes
        - docs: explain the release pipeline

        """

    static let groupedText = """
        Breaking changes:
        - the app needs iOS 16 or later.

        Features:
        - login: sign in with Apple (#14), co-authored by Jane Doe, Li Wei

        Bug fixes:
        - ui: clipped labels on small screens (#20)
        - crash on launch when offline

        Performance:
        - zip: deflate on every core

        Other changes:
        - docs: explain the release pipeline
        """

    @Test func conventionalHistoryIsGroupedWithPullRequestsLinkedAndCoAuthorsKept() async throws {
        let repo = try await Self.conventionalRepository()
        defer { repo.remove() }
        let outputs = try await Self.step("{}").run(in: repo.context())
        #expect(outputs["markdown"] == .string(Self.groupedMarkdown))
        #expect(outputs["text"] == .string(Self.groupedText))
        #expect(outputs["previous_tag"] == .string("v1.0.0"))
        #expect(outputs["commits"] == .number(6))
    }

    @Test func aReRunAfterTaggingGivesTheSameNotes() async throws {
        let repo = try await Self.conventionalRepository()
        defer { repo.remove() }
        try await repo.git("tag", "v1.1.0")
        let outputs = try await Self.step("{}").run(in: repo.context())
        #expect(outputs["previous_tag"] == .string("v1.0.0"))
        #expect(outputs["markdown"] == .string(Self.groupedMarkdown))
    }

    @Test func tagPatternAndFromChooseWhereTheNotesStart() async throws {
        let repo = try await Self.conventionalRepository()
        defer { repo.remove() }
        let head = try await repo.git("rev-parse", "HEAD~1")
        try await repo.git("tag", "build-7", head)
        let sinceBuild = try await Self.step(#"{"tag_pattern": "build-*"}"#).run(in: repo.context())
        #expect(sinceBuild["previous_tag"] == .string("build-7"))
        #expect(sinceBuild["markdown"] == .string("### Breaking changes\n- the app needs iOS 16 or later.\n"))
        let none = try await Self.step(#"{"tag_pattern": "release-*"}"#).run(in: repo.context())
        #expect(none["previous_tag"] == .string(""))
        #expect(none["commits"] == .number(7))  // the initial commit too
        let from = try await Self.step(#"{"from": "build-7", "to": "build-7"}"#).run(in: repo.context())
        #expect(from["markdown"] == .string("No changes since build-7.\n"))
        #expect(from["text"] == .string("No changes since build-7."))
    }

    @Test func historyWithoutConventionalCommitsIsOnePlainList() async throws {
        let repo = try await VersioningGitRepository()
        defer { repo.remove() }
        try await repo.git("tag", "v2.0")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "Fix the login screen (#31)")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "feat: a lone conventional one")
        try await repo.git("commit", "-q", "--allow-empty", "-m", "Update translations\n\nCo-authored-by: Ana Lima <ana@example.com>")
        // No GitHub remote: pull request numbers stay plain.
        let outputs = try await Self.step("{}").run(in: repo.context())
        #expect(outputs["markdown"] == .string("- Update translations, co-authored by Ana Lima\n- feat: a lone conventional one\n- Fix the login screen (#31)\n"))
        #expect(outputs["text"] == .string("- Update translations, co-authored by Ana Lima\n- feat: a lone conventional one\n- Fix the login screen (#31)"))
    }

    @Test func commitMessagesAreReadAsConventionalCommits() {
        let breaking = NotesCommit(
            sha: "a", message: "refactor(api)!: rename endpoints\n\nBREAKING CHANGE: clients must use /v2,\nwhich needs a token.\n\nSigned-off-by: X <x@example.com>")
        #expect(breaking.type == "refactor" && breaking.scope == "api" && breaking.breaking)
        #expect(breaking.breakingNote == "clients must use /v2, which needs a token.")
        #expect(breaking.description == "rename endpoints")
        let merge = NotesCommit(sha: "b", message: "Merge pull request #7 from o/b\n\nAdd widgets")
        #expect(merge.pullRequest == 7 && merge.description == "Add widgets" && merge.type == nil)
        let squash = NotesCommit(sha: "c", message: "Fix typo (#123)")
        #expect(squash.pullRequest == 123 && squash.description == "Fix typo")
        let notConventional = NotesCommit(sha: "d", message: "Bump to 3.0.0: ships now")
        #expect(notConventional.type == nil && notConventional.description == "Bump to 3.0.0: ships now")
        #expect(NotesCommit(sha: "e", message: "fix(): empty scope").type == nil)
    }

    @Test func longTextIsCutAtAWholeEntryWithANote() {
        let commits = (1...40).map { NotesCommit(sha: "\($0)", message: "fix: problem number \($0) that testers should look at again") }
        let notes = ReleaseNotes(commits: commits, repository: "octo/app", previousTag: "v1")
        let text = notes.text(limit: 300)
        #expect(
            text == """
                Bug fixes:
                - problem number 1 that testers should look at again
                - problem number 2 that testers should look at again
                - problem number 3 that testers should look at again
                - problem number 4 that testers should look at again

                … and 36 more changes, left out to stay within 300 characters.
                """)
        #expect(text.utf16.count <= 300)
        #expect(notes.text(limit: 4000).utf16.count <= 4000)
        // TestFlight's limit by default, whatever the history's size.
        let many = ReleaseNotes(commits: (1...500).map { NotesCommit(sha: "\($0)", message: "Change \($0)") })
        let cut = many.text(limit: 4000)
        #expect(cut.utf16.count <= 4000 && cut.hasSuffix("left out to stay within 4000 characters."))
    }

    @Test func githubSourceAsksTheAPIForGeneratedNotes() async throws {
        let fixture = try GitHubTestFixture()
        let repo = try await Self.conventionalRepository()
        defer { repo.remove() }
        let step = try Self.step(#"{"source": "github", "token": "\#(GitHubTestFixture.token)", "tag": "v1.1.0", "target": "main"}"#)
        let context = StepContext(
            stepID: "notes", kind: NotesStep.kind, workingDirectory: repo.path, environment: ProcessInfo.processInfo.environment,
            endpoints: ServiceEndpoints(overrides: [.github: fixture.url], isolated: true))
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(
            plan.effects == [
                .request(
                    method: "POST", url: "\(fixture.url)/repos/octo/app/releases/generate-notes",
                    detail: "GitHub's generated notes for 'v1.1.0' since 'v1.0.0' (creates nothing)")
            ])
        let outputs = try await step.run(in: context)
        let changelog = "\(fixture.url)/octo/app/compare/v1.0.0...v1.1.0"
        #expect(outputs["markdown"] == .string("## What's Changed\n\n**Full Changelog**: \(changelog)"))
        #expect(outputs["text"] == .string("What's Changed:\n\nFull Changelog: \(changelog)"))
        let request = try #require(fixture.server.requests.last)
        #expect(request.method == "POST" && request.route == .generateNotes && request.status == 200)
        #expect(request.header("Authorization") == "Bearer \(GitHubTestFixture.token)")
        #expect(fixture.server.releases().isEmpty)
    }

    @Test func githubGeneratedMarkdownBecomesPlainText() {
        let markdown =
            "## What's Changed\n* Add widgets by @jane in https://github.com/o/r/pull/7\n* **Fix** the [login](https://x.example/l) `screen`\n\n## New Contributors\n* @jane made their first contribution\n"
        #expect(
            ReleaseNotes.plainText(fromMarkdown: markdown, limit: 4000)
                == "What's Changed:\n- Add widgets by @jane in https://github.com/o/r/pull/7\n- Fix the login screen\n\nNew Contributors:\n- @jane made their first contribution")
    }

    // MARK: Failure modes

    @Test(arguments: [
        (#"{"tag_pattern": ""}"#, "option 'tag_pattern': the pattern is empty"),
        (#"{"repo": "octo"}"#, "option 'repo': 'octo' is not of the form 'owner/name'"),
        (#"{"source": "github", "tag": "v1"}"#, "option 'token': source 'github' needs a token, normally ${secrets.GITHUB_TOKEN}"),
        (#"{"source": "github", "token": "t"}"#, "option 'tag': source 'github' needs the tag of the release the notes are for"),
    ])
    func badOptionsAreRejectedBeforeAnythingRuns(json: String, message: String) {
        #expect(throws: StepError.self) { try Self.step(json) }
        do { _ = try Self.step(json) } catch { #expect("\(error)" == message) }
    }

    @Test func verifyFailsOutsideARepositoryAndOnUnknownCommits() async throws {
        let folder = TestPipelines.temporaryDirectory()
        let outside = StepContext(stepID: "notes", kind: NotesStep.kind, workingDirectory: folder, environment: ProcessInfo.processInfo.environment)
        await #expect(throws: StepError.failed("'\(folder)' is not in a git repository")) { try await Self.step("{}").verify(in: outside) }
        let repo = try await VersioningGitRepository()
        defer { repo.remove() }
        await #expect(throws: StepError.invalidOption("to", "'nope' is not a commit")) { try await Self.step(#"{"to": "nope"}"#).verify(in: repo.context()) }
        await #expect(throws: StepError.invalidOption("from", "'v9' is not a commit")) { try await Self.step(#"{"from": "v9"}"#).verify(in: repo.context()) }
        let github = try Self.step(#"{"source": "github", "token": "t", "tag": "v1"}"#)
        await #expect(throws: StepError.invalidOption("repo", "no GitHub repository: give 'repo', or run in a clone whose remote 'origin' is on github.com")) {
            try await github.verify(in: repo.context())
        }
    }

    @Test func aRejectedTokenFailsWithGitHubsMessageAndIsMasked() async throws {
        let fixture = try GitHubTestFixture()
        let step = try Self.step(#"{"source": "github", "repo": "octo/app", "token": "ghp_wrongwrongwrong", "tag": "v1"}"#)
        let context = StepContext(
            stepID: "notes", kind: NotesStep.kind, workingDirectory: fixture.directory, environment: [:],
            endpoints: ServiceEndpoints(overrides: [.github: fixture.url], isolated: true))
        await #expect(
            throws: StepError.failed(
                "GitHub rejected the token at \(fixture.url) (401 Bad credentials): check that it is set, not expired, and has the 'contents: write' permission")
        ) {
            _ = try await step.run(in: context)
        }
    }

    @Test func aPipelineHandsTheNotesToLaterSteps() async throws {
        let repo = try await Self.conventionalRepository()
        defer { repo.remove() }
        let (result, reporter) = try await TestPipelines.run(
            """
            {"version": 1, "steps": [
              {"id": "notes", "uses": "notes"},
              {"id": "show", "uses": "print", "with": {"message": "${steps.notes.outputs.text}"}}]}
            """,
            configure: {
                $0.workingDirectory = repo.path; $0.dryRun = true
            })
        // Both read-only: a dry run really runs them.
        #expect(result.statuses == ["notes=ok", "show=ok"])
        #expect(reporter.logLines.contains("notes: 6 changes since 'v1.0.0', grouped by Conventional Commit type"))
        #expect(result.step("show")?.outputs["message"] == .string(Self.groupedText))
    }
}
