import Foundation
import ReleaseSupport

/// `git.commit`: stage files and commit them.
package struct GitCommitStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(must: .notBeEmpty(trimmed: true, "the commit message is empty"), help: "the commit message")
        package var message: String
        @StepOption(
            .path,
            help:
                "the files to stage and commit, and only those (default: every change, git add -A); when none of them changed, nothing is committed and the step succeeds, so a re-run converges (an empty list commits nothing)"
        )
        package var paths: [String]?
        @StepOption(help: "commit even when nothing changed")
        package var allowEmpty: Bool = false
        @StepOption(
            help:
                "who the commit is by, 'Name <email>', for this commit only (default: git's configured identity; where git has none, as on a hosted CI runner, the CI's actor in the host's no-reply form, else release <release@localhost>; never written to git's configuration)"
        )
        package var author: String?
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "git.commit"
    /// One line for `release steps`.
    package static let summary = "Stage files and create a git commit"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("sha", "string", "the new commit"),
        .init("message", "string", "the commit message"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "commit", "uses": "git.commit", "needs": ["bump"], "with": {"message": "Bump version to ${steps.bump.outputs.version} (${steps.bump.outputs.build})", "paths": ["Demo.xcodeproj/project.pbxproj"]}}
        """

    /// The decoded options.
    package let options: Options
    /// The `author` option, checked.
    let author: GitIdentity?

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
        do {
            author = try options.author.map { text throws(GitIdentity.Problem) in try GitIdentity(parsing: text) }
        } catch {
            throw StepError.invalidOption("author", error.description)
        }
        self.options = options
    }

    private func commands(_ context: StepContext, announce: Bool) async throws -> [[String]] {
        let paths = (options.paths ?? []).map(context.resolvePath)
        let identity = try await context.gitIdentityOptions(author: author, directory: options.directory, announce: announce)
        let commit = GitCommand.commit(message: options.message, allowEmpty: options.allowEmpty, paths: paths)
        return [GitCommand.add(paths), GitCommand.configured(commit, identity)]
    }

    /// Whether the named paths hold any change to commit (always true without `paths` or with `allow_empty`).
    private func hasChanges(_ context: StepContext) async throws -> Bool {
        guard let paths = options.paths, !options.allowEmpty else { return true }
        guard !paths.isEmpty else { return false }
        let status = try await context.capture(["git", "status", "--porcelain", "--"] + paths.map(context.resolvePath), directory: options.directory)
        return !status.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    package func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let directory = options.directory.map(context.resolvePath)
        return StepPlan(
            effects: try await commands(context, announce: false).map { .command(argv: $0, directory: directory) },
            outputs: StepOutputs(["message": .string(options.message)])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        // A re-run whose bump changed nothing has nothing to commit: the commit it made last time stands.
        guard try await hasChanges(context) else {
            let sha = try await context.capture(GitCommand.head, directory: options.directory)
            let paths = options.paths ?? []
            context.log((paths.isEmpty ? "no file to commit" : "none of the \(paths.count) files changed") + "; HEAD stays at \(sha.prefix(12))")
            return StepOutputs(["sha": .string(sha), "message": .string(options.message)])
        }
        for command in try await commands(context, announce: true) {
            try await context.git(command, directory: options.directory)
        }
        let sha = try await context.capture(GitCommand.head, directory: options.directory)
        return StepOutputs(["sha": .string(sha), "message": .string(options.message)])
    }
}
