import Foundation
import ReleaseSupport

/// `git.push`: push branches and tags to a remote.
package struct GitPushStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the remote")
        package var remote: String = "origin"
        @StepOption(
            help:
                "branches or tags to push (default: the current branch; where HEAD is detached, as on GitLab CI, HEAD goes to the branch the CI names, CI_COMMIT_BRANCH or GITHUB_REF_NAME, as HEAD:refs/heads/NAME, and so does a ref naming that branch)"
        )
        package var refs: [String] = []
        @StepOption(help: "also push every tag")
        package var tags: Bool = false
        @StepOption(help: "make the remote branch the upstream, git push -u")
        package var setUpstream: Bool = false
        @StepOption(help: "push with --force-with-lease")
        package var force: Bool = false
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "git.push"
    package static let exportTraits = ExportTraits(writesRepository: true)
    /// One line for `release steps`.
    package static let summary = "Push branches and tags to a git remote"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("remote", "string", "the remote pushed to"),
        .init("refs", "list", "what was pushed"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "push", "uses": "git.push", "needs": ["branch", "commit"], "with": {"refs": ["${steps.branch.outputs.branch}"], "set_upstream": true}}
        """

    /// The decoded options.
    package let options: Options

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
        guard !options.remote.isEmpty, !options.remote.hasPrefix("-") else {
            throw StepError.invalidOption("remote", "'\(options.remote)' is not a remote name")
        }
        if let bad = options.refs.first(where: { $0.hasPrefix("-") || $0.isEmpty }) {
            throw StepError.invalidOption("refs", "'\(bad)' is not a ref")
        }
        self.options = options
    }

    private func command(refs: [String]) -> [String] {
        GitCommand.push(remote: options.remote, refs: refs, setUpstream: options.setUpstream, tags: options.tags, force: options.force)
    }

    package func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        guard try await context.gitSucceeds(GitCommand.remoteURL(options.remote), directory: options.directory) else {
            throw StepError.failed("no git remote '\(options.remote)'")
        }
    }

    /// What to push: `refs`, or the current branch. In a detached checkout (GitLab CI checks out the commit, with
    /// `CI_COMMIT_BRANCH` naming the branch) the branch is the CI's, and HEAD is pushed to it by its full name
    /// (`HEAD:refs/heads/NAME`): git cannot name the destination after a branch HEAD is not on. So is a ref naming
    /// the CI's branch when no local branch has that name.
    private func resolvedRefs(_ context: StepContext, planning: Bool) async throws -> [String] {
        let directory = options.directory
        let current = try await context.currentBranch(directory: directory)
        let pullRequest = CIEnvironment.isPullRequest(context.environment)
        func detachedPush(_ branch: String) -> String { "HEAD:refs/heads/\(branch)" }
        guard !options.refs.isEmpty else {
            // `git push REMOTE HEAD` pushes the branch HEAD is on, whichever a step before this one checks out.
            guard current.detached else { return [planning ? "HEAD" : current.name ?? "HEAD"] }
            guard let branch = current.name, !pullRequest, GitCommand.isValidRefName(branch) else {
                // A step before this one may yet check out a branch: the run decides.
                if planning { return ["HEAD"] }
                throw StepError.failed(
                    "HEAD is detached and no CI variable names its branch (CI_COMMIT_BRANCH, GITHUB_REF_NAME…): name what to push in 'refs', for example \"HEAD:refs/heads/main\""
                )
            }
            return [detachedPush(branch)]
        }
        // A pull request's ref (`42/merge`) is GitHub's, never a branch to push to.
        guard !pullRequest, let branch = current.detached ? current.name : CIEnvironment.branch(context.environment) else {
            return options.refs
        }
        var refs: [String] = []
        for ref in options.refs {
            guard ref == branch, !(try await context.gitSucceeds(GitCommand.tagExists(ref), directory: directory)) else {
                refs.append(ref)
                continue
            }
            let local = try await context.gitSucceeds(GitCommand.branchExists(ref), directory: directory)
            refs.append(current.detached || !local ? detachedPush(ref) : ref)
        }
        return refs
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let refs = try await resolvedRefs(context, planning: true)
        return StepPlan(
            effects: [.command(argv: command(refs: refs), directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["remote": .string(options.remote), "refs": .list(refs.map(OutputValue.string))])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let refs = try await resolvedRefs(context, planning: false)
        if context.endpoints.isolated {
            // A rehearsal: nothing leaves the machine. The refs go to a local bare repository standing in for the
            // remote, without `-u` (the checkout's upstream stays the real remote).
            let folder = try context.endpoints.baseURL(.git, configured: "")
            let mirror = (folder as NSString).appendingPathComponent(options.remote + ".git")
            if !context.files.exists(mirror) {
                try context.files.createDirectory(mirror)
                try await context.git(["git", "init", "-q", "--bare", mirror], directory: options.directory)
            }
            context.log("rehearsal: pushing to the local stand-in '\(mirror)' instead of remote '\(options.remote)'")
            try await context.git(GitCommand.push(remote: mirror, refs: refs, tags: options.tags, force: options.force), directory: options.directory)
            return StepOutputs(["remote": .string(options.remote), "refs": .list(refs.map(OutputValue.string))])
        }
        try await context.git(command(refs: refs), directory: options.directory)
        return StepOutputs(["remote": .string(options.remote), "refs": .list(refs.map(OutputValue.string))])
    }
}
