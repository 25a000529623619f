import Foundation
import ReleaseSupport

/// `gate.git`: rejects the release when the working tree has changes (outside `ignore`), the branch does not
/// match `branch`, or the tag about to be created already exists, locally or on `remote`.
package struct GitGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(help: "require a clean working tree: no modified, staged or untracked files")
        package var clean: Bool = true
        @StepOption(
            .glob, must: .haveNoEmptyItem("pattern"),
            help: "paths whose changes do not count, matched against the path from the repository root (* matches /; 'build/' covers the folder)")
        package var ignore: [String] = []
        @StepOption(.glob, must: .notBeEmpty("the pattern is empty"), help: "the current branch must match it, for example release/*")
        package var branch: String?
        @StepOption(help: "a tag that must not exist yet, locally nor on 'remote'")
        package var tag: String?
        @StepOption(help: "a remote to check 'tag' on too (git ls-remote --tags)")
        package var remote: String?
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "gate.git"
    /// One line for `release steps`.
    package static let summary = "Reject the release on a dirty working tree, a branch not matching a pattern, or a tag already taken"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("branch", "string", "the current branch (in a detached checkout, the branch the CI names: CI_COMMIT_BRANCH, GITHUB_REF_NAME…)"),
        .init("sha", "string", "the commit HEAD points at"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        { "id": "check-git", "uses": "gate.git", "gate": true,
          "with": { "branch": "release/*", "ignore": ["build/*"], "tag": "v${steps.bump.outputs.version}", "remote": "origin" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an invalid tag name, an empty pattern, or `remote` without `tag`.
    package init(options: Options) throws {
        try options.validate()
        if let tag = options.tag, !GitCommand.isValidRefName(tag) {
            throw StepError.invalidOption("tag", "'\(tag)' is not a valid tag name")
        }
        if let remote = options.remote {
            guard !remote.isEmpty, !remote.hasPrefix("-") else { throw StepError.invalidOption("remote", "'\(remote)' is not a remote") }
            guard options.tag != nil else { throw StepError.invalidOption("remote", "'remote' checks 'tag', which is not set") }
        }
        self.options = options
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        if let remote = options.remote, !remote.contains(":"), !remote.contains("/") {
            _ = try await context.capture(GitCommand.remoteURL(remote), directory: options.directory)
        }
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        var checks: [String] = []
        if options.clean { checks.append("the working tree is clean") }
        if let branch = options.branch { checks.append("the branch matches '\(branch)'") }
        if let tag = options.tag { checks.append("tag '\(tag)' is free locally" + (options.remote.map { " and on '\($0)'" } ?? "")) }
        return StepPlan(effects: [.note("check that " + checks.joined(separator: ", "))])
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let directory = options.directory
        let root = try await context.capture(["git", "rev-parse", "--show-toplevel"], directory: directory)
        var problems: [String] = []
        if options.clean {
            let status = try await context.capture(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], directory: directory)
            let changes = Self.changes(fromPorcelain: status).filter { change in
                !options.ignore.contains { Self.ignores($0, change.path) }
            }
            if !changes.isEmpty {
                let shown = changes.prefix(10).map { "'\($0.status) \($0.path)'" }.joined(separator: ", ")
                let more = changes.count > 10 ? " and \(changes.count - 10) more" : ""
                problems.append(
                    "the working tree '\(root)' is not clean: \(changes.count) changed \(changes.count == 1 ? "path" : "paths"): \(shown)\(more); commit them, or list them in 'ignore'"
                )
            }
        }
        // A detached checkout (GitLab CI) is on the branch its CI variables name.
        let current = try await context.currentBranch(directory: directory)
        let branch = current.name ?? "HEAD"
        if let pattern = options.branch, !Glob.matches(pattern, branch) {
            problems.append(
                current.name == nil
                    ? "HEAD in '\(root)' is detached and no CI variable names its branch, expected a branch matching '\(pattern)'"
                    : "branch '\(branch)'\(current.detached ? " (HEAD detached, the branch from the CI)" : "") does not match '\(pattern)'")
        }
        if let tag = options.tag {
            if try await context.gitSucceeds(GitCommand.tagExists(tag), directory: directory) {
                let commit = try await context.capture(["git", "rev-list", "-n", "1", "refs/tags/\(tag)"], directory: directory)
                problems.append("tag '\(tag)' already exists in '\(root)' (at \(commit.prefix(12)))")
            }
            if let remote = options.remote {
                let listed = try await context.capture(["git", "ls-remote", "--tags", remote, "refs/tags/\(tag)"], directory: directory)
                if let line = listed.split(separator: "\n").first {
                    problems.append("tag '\(tag)' already exists on remote '\(remote)' (at \(line.prefix(12)))")
                }
            }
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        let sha = try await context.capture(GitCommand.head, directory: directory)
        return StepOutputs(["branch": .string(branch), "sha": .string(sha)])
    }

    /// Whether an `ignore` pattern covers `path`: a glob (`*` matches `/` too), or a folder written with a
    /// trailing `/` (`build/`), which covers everything under it.
    static func ignores(_ pattern: String, _ path: String) -> Bool {
        if pattern.hasSuffix("/") { return path.hasPrefix(pattern) || Glob.matches(pattern + "*", path) }
        return Glob.matches(pattern, path)
    }

    /// One path `git status` reports.
    struct Change: Equatable {
        /// The two status letters (`M `, ` M`, `??`, `R `).
        var status: String
        var path: String
    }

    /// Parses `git status --porcelain=v1 -z`: `XY PATH\0`, with renames and copies followed by `ORIGINAL\0`.
    static func changes(fromPorcelain text: String) -> [Change] {
        var records = text.split(separator: "\0", omittingEmptySubsequences: true).map(String.init)[...]
        var changes: [Change] = []
        while let record = records.popFirst() {
            guard record.count > 3 else { continue }
            let status = String(record.prefix(2))
            changes.append(Change(status: status, path: String(record.dropFirst(3))))
            if status.first == "R" || status.first == "C" { _ = records.popFirst() }
        }
        return changes
    }
}
