import Foundation

/// `git.push`: push branches and tags to a remote.
public struct GitPushStep: Step {
    /// The step's `with` object.
    public struct Options: StepOptions {
        @StepOption(help: "the remote")
        public var remote: String = "origin"
        @StepOption(help: "branches or tags to push (default: the current branch)")
        public var refs: [String] = []
        @StepOption(help: "also push every tag")
        public var tags: Bool = false
        @StepOption(help: "make the remote branch the upstream, git push -u")
        public var setUpstream: Bool = false
        @StepOption(help: "push with --force-with-lease")
        public var force: Bool = false
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        public var directory: String?

        public init() {}
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.push"
    /// One line for `release steps`.
    public static let summary = "Push branches and tags to a git remote"
    /// The outputs, for `release steps`.
    public static let outputs: [StepDocumentation.Output] = [
        .init("remote", "string", "the remote pushed to"),
        .init("refs", "list", "what was pushed"),
    ]
    /// A complete step object, for `release steps`.
    public static let example = """
        {"id": "push", "uses": "git.push", "needs": ["branch", "commit"], "with": {"refs": ["${steps.branch.outputs.branch}"], "set_upstream": true}}
        """

    /// The decoded options.
    public let options: Options

    /// Creates a value from its parts.
    public init(options: Options) throws {
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

    public func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        guard try await context.gitSucceeds(GitCommand.remoteURL(options.remote), directory: options.directory) else {
            throw StepError.failed("no git remote '\(options.remote)'")
        }
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        let refs = options.refs.isEmpty ? ["HEAD"] : options.refs
        return StepPlan(
            effects: [.command(argv: command(refs: refs), directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["remote": .string(options.remote), "refs": .list(refs.map(OutputValue.string))])
        )
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        var refs = options.refs
        if refs.isEmpty {
            refs = [try await context.capture(GitCommand.currentBranch, directory: options.directory)]
        }
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
