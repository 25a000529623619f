import Foundation
import ReleaseGitHub
import ReleaseHTTP
import ReleaseSupport

/// `notes`: release notes for the changes since the previous release, as Markdown (`github.release`'s `body`) and
/// plain text within TestFlight's 4,000-character "What to Test" (`testflight.distribute`).
///
/// From git (the default): the first-parent history from the newest tag matching `tag_pattern` before `to`, up to
/// `to`; a merged pull request is one entry with its title. Grouped by Conventional Commit type when most commits use
/// it, else one list; pull requests linked when the repository is on GitHub; co-authors named. From GitHub: the notes
/// GitHub generates for a release of `tag` (the API call creates nothing). Read-only, so it really runs in dry runs.
package struct NotesStep: Step {
    /// Where the notes come from.
    package enum Source: String, OptionChoice, Equatable {
        /// The commits since the previous release tag.
        case git
        /// GitHub's generated notes.
        case github
    }

    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "'git': from the commits since the previous release tag; 'github': GitHub's generated notes")
        package var source: Source = .git
        @StepOption(
            .glob,
            must: .notBeEmpty("the pattern is empty"),
            help:
                "tags that mark releases (git describe --match); the previous release is the newest one reachable from the parent of 'to', so a re-run after tagging gives the same notes"
        )
        package var tagPattern: String = "v*"
        @StepOption(help: "start after this tag or commit instead of the previous release tag")
        package var from: String?
        @StepOption(help: "the release's last commit")
        package var to: String = "HEAD"
        @StepOption(
            must: .beGitHubRepository, help: "'owner/name' on GitHub, for pull request links and source 'github' (default: from the URL of 'remote' when it is on github.com)")
        package var repo: String?
        @StepOption(help: "the git remote whose URL names the GitHub repository")
        package var remote: String = "origin"
        @StepOption(help: "source 'github': a token that can read the repository, normally ${secrets.GITHUB_TOKEN}")
        package var token: String?
        @StepOption(help: "source 'github': the tag of the release the notes are for (it need not exist yet)")
        package var tag: String?
        @StepOption(help: "source 'github': the branch or commit the tag would be created from when it does not exist (default: the repository's default branch)")
        package var target: String?
        @StepOption(
            must: .beHTTPURL(credentials: GitHubReleaseStep.credentialsInURL), help: "source 'github': the API base URL (default $GITHUB_API_URL, else https://api.github.com)")
        package var api: String?
        @StepOption(range: 1...1_000_000, help: "the most characters of the 'text' output; longer notes lose entries from the end and say how many")
        package var textLimit: Int = 4000
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    package static let kind = "notes"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    package static let summary = "Release notes since the previous tag (grouped by Conventional Commit type, pull requests linked) or GitHub's generated notes"
    package static let outputs: [StepDocumentation.Output] = [
        .init("markdown", "string", "the notes as Markdown, for a GitHub Release body"),
        .init("text", "string", "the notes as plain text within 'text_limit' characters, for TestFlight's What to Test"),
        .init("previous_tag", "string", "the tag the notes start after (empty when there is none: the whole history)"),
        .init("commits", "number", "how many changes the notes list (0 for source 'github')"),
    ]
    package static let example = """
        {"id": "notes", "uses": "notes", "with": {"tag_pattern": "v*"}}
        """

    package let options: Options

    package init(options: Options) throws {
        try options.validate()
        if options.source == .github {
            guard let token = options.token, !token.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw StepError.invalidOption("token", "source 'github' needs a token, normally ${secrets.GITHUB_TOKEN}")
            }
            guard let tag = options.tag, !tag.isEmpty else {
                throw StepError.invalidOption("tag", "source 'github' needs the tag of the release the notes are for")
            }
        }
        self.options = options
    }

    package var isReadOnly: Bool { true }

    // MARK: Step

    package func verify(in context: StepContext) async throws {
        if let token = options.token { context.masker.add(token) }
        if options.source == .github {
            _ = try await repository(in: context, required: true)
            return
        }
        try await context.requireGitRepository(options.directory)
        try await requireCommit(options.to, option: "to", in: context)
        if let from = options.from { try await requireCommit(from, option: "from", in: context) }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        if let token = options.token { context.masker.add(token) }
        switch options.source {
        case .git:
            // A dry run really runs the step (it only reads), so preflight only promises the outputs: empty notes
            // are enough to check the steps that use them, and preflight spawns no more git than verify's.
            let start = options.from.map { "'\($0)'" } ?? "the newest tag matching '\(options.tagPattern)'"
            return StepPlan(
                effects: [.note("release notes from the commits after \(start) up to '\(options.to)'")],
                outputs: StepOutputs(["markdown": .string(""), "text": .string(""), "previous_tag": .string(""), "commits": .number(0)])
            )
        case .github:
            let repository = try await repository(in: context, required: true) ?? ""
            let previous = try await previousTag(in: context)
            let url = try apiURL(in: context) + GitHubClient.repoPath(repository) + "/releases/generate-notes"
            let since = previous.map { " since '\($0)'" } ?? ""
            return StepPlan(
                effects: [.request(method: "POST", url: url, detail: "GitHub's generated notes for '\(options.tag ?? "")'\(since) (creates nothing)")],
                outputs: StepOutputs(["markdown": .string(""), "text": .string(""), "previous_tag": .string(previous ?? ""), "commits": .number(0)])
            )
        }
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        if let token = options.token { context.masker.add(token) }
        switch options.source {
        case .git:
            let notes = try await gitNotes(in: context)
            context.log(summary(notes))
            return outputs(notes)
        case .github:
            return try await githubNotes(in: context)
        }
    }

    // MARK: From git

    /// The notes from the history between the previous release and `to`.
    func gitNotes(in context: StepContext) async throws -> ReleaseNotes {
        try await context.requireGitRepository(options.directory)
        let previous = try await previousTag(in: context)
        let range = previous.map { "\($0)..\(options.to)" } ?? options.to
        let log = try await context.capture(["git", "log", "--first-parent", "--format=%H%x1f%B%x1e", range, "--"], directory: options.directory)
        let commits = log.split(separator: "\u{1e}").compactMap { record -> NotesCommit? in
            let fields = record.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\u{1f}", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2 else { return nil }
            return NotesCommit(sha: String(fields[0]), message: String(fields[1]))
        }
        return ReleaseNotes(commits: commits, repository: try await repository(in: context, required: false), previousTag: previous)
    }

    /// `from`, else the newest tag matching `tag_pattern` reachable from the parent of `to` (nil when there is none).
    /// From the parent, so that a tag already on `to` (a re-run after `git.tag`) is this release, not the previous one.
    func previousTag(in context: StepContext) async throws -> String? {
        if let from = options.from { return from }
        let describe = ["git", "describe", "--tags", "--abbrev=0", "--match", options.tagPattern, options.to + "^"]
        let result = try await context.run(describe, directory: options.directory, echo: false)
        let tag = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.succeeded && !tag.isEmpty ? tag : nil
    }

    private func requireCommit(_ ref: String, option: String, in context: StepContext) async throws {
        guard try await context.gitSucceeds(["git", "rev-parse", "--verify", "--quiet", ref + "^{commit}"], directory: options.directory) else {
            throw StepError.invalidOption(option, "'\(ref)' is not a commit")
        }
    }

    private func summary(_ notes: ReleaseNotes) -> String {
        let since = notes.previousTag.map { "since '\($0)'" } ?? "in the whole history (no tag matches '\(options.tagPattern)')"
        let count = notes.commits.count
        let form = notes.isGrouped ? ", grouped by Conventional Commit type" : ""
        return "\(count) change\(count == 1 ? "" : "s") \(since)\(form)"
    }

    private func outputs(_ notes: ReleaseNotes) -> StepOutputs {
        StepOutputs([
            "markdown": .string(notes.markdown()),
            "text": .string(notes.text(limit: options.textLimit)),
            "previous_tag": .string(notes.previousTag ?? ""),
            "commits": .number(Double(notes.commits.count)),
        ])
    }

    // MARK: From GitHub

    private func githubNotes(in context: StepContext) async throws -> StepOutputs {
        guard let repository = try await repository(in: context, required: true), let token = options.token, let tag = options.tag else {
            throw InternalError("source 'github' without repo, token or tag")
        }
        let previous = try await previousTag(in: context)
        let http = context.httpClient(for: .github)
        let generated: GitHubGeneratedNotes
        do {
            let client = try GitHubClient(apiURL: try apiURL(in: context), token: token, configuration: http.configuration)
            generated = try await client.generateNotes(repository, tag: tag, target: options.target, previousTag: previous)
        } catch {
            throw GitHubReleaseStep.stepError(error, context)
        }
        context.log("GitHub's generated notes for '\(tag)'" + (previous.map { " since '\($0)'" } ?? ""))
        return StepOutputs([
            "markdown": .string(generated.body),
            "text": .string(ReleaseNotes.plainText(fromMarkdown: generated.body, limit: options.textLimit)),
            "previous_tag": .string(previous ?? ""),
            "commits": .number(0),
        ])
    }

    /// `api` as the step uses it: `--rehearse`'s server, the option, `$GITHUB_API_URL`, or github.com.
    private func apiURL(in context: StepContext) throws -> String {
        try GitHubReleaseStep.apiURL(options.api, in: context)
    }

    /// `repo`, else the GitHub repository `remote` points to. `required`: fail when there is none.
    func repository(in context: StepContext, required: Bool) async throws -> String? {
        if let repo = options.repo { return repo }
        let result = try await context.run(GitCommand.configuredRemoteURL(options.remote), directory: options.directory, echo: false)
        let url = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.succeeded, let repository = GitHubRemote.repository(fromURL: url) { return repository }
        guard required else { return nil }
        throw StepError.invalidOption("repo", "no GitHub repository: give 'repo', or run in a clone whose remote '\(options.remote)' is on github.com")
    }
}
