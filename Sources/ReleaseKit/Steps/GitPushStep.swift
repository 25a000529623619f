/// `git.push`: push branches and tags to a remote.
public struct GitPushStep: Step {
    /// The step's `with` object (snake_case keys).
    public struct Options: Decodable, Sendable {
        /// See ``documentation``.
        public var remote: String
        /// See ``documentation``.
        public var refs: [String]
        /// See ``documentation``.
        public var tags: Bool
        /// See ``documentation``.
        public var setUpstream: Bool
        /// See ``documentation``.
        public var force: Bool
        /// See ``documentation``.
        public var directory: String?

        enum CodingKeys: String, CodingKey {
            case remote, refs, tags
            case setUpstream = "set_upstream"
            case force, directory
        }

        /// Creates the options; defaults match the documented ones.
        public init(remote: String = "origin", refs: [String] = [], tags: Bool = false, setUpstream: Bool = false, force: Bool = false, directory: String? = nil) {
            self.remote = remote
            self.refs = refs
            self.tags = tags
            self.setUpstream = setUpstream
            self.force = force
            self.directory = directory
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            remote = try container.decodeIfPresent(String.self, forKey: .remote) ?? "origin"
            refs = try container.decodeIfPresent([String].self, forKey: .refs) ?? []
            tags = try container.decodeIfPresent(Bool.self, forKey: .tags) ?? false
            setUpstream = try container.decodeIfPresent(Bool.self, forKey: .setUpstream) ?? false
            force = try container.decodeIfPresent(Bool.self, forKey: .force) ?? false
            directory = try container.decodeIfPresent(String.self, forKey: .directory)
        }
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.push"
    /// One line for `release steps`.
    public static let summary = "Push branches and tags to a git remote"
    /// Options, outputs and an example for `release steps`.
    public static let documentation = StepDocumentation(
        options: [
            .init("remote", "string", "the remote (default origin)"),
            .init("refs", "list", "branches or tags to push (default: the current branch)"),
            .init("tags", "bool", "also push every tag (default false)"),
            .init("set_upstream", "bool", "make the remote branch the upstream, git push -u (default false)"),
            .init("force", "bool", "push with --force-with-lease (default false)"),
            .init("directory", "path", "the repository folder (default: the working directory)"),
        ],
        outputs: [
            .init("remote", "string", "the remote pushed to"),
            .init("refs", "list", "what was pushed"),
        ],
        example: """
            {"id": "push", "uses": "git.push", "needs": ["branch", "commit"], "with": {"refs": ["${steps.branch.outputs.branch}"], "set_upstream": true}}
            """
    )

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
        try await context.git(command(refs: refs), directory: options.directory)
        return StepOutputs(["remote": .string(options.remote), "refs": .list(refs.map(OutputValue.string))])
    }
}
