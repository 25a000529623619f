/// `git.branch`: create a branch (and switch to it), for example `release/3.0.1`.
public struct GitBranchStep: Step {
    /// The step's `with` object (snake_case keys).
    public struct Options: Decodable, Sendable {
        /// See ``documentation``.
        public var name: String
        /// See ``documentation``.
        public var startPoint: String?
        /// See ``documentation``.
        public var checkout: Bool
        /// See ``documentation``.
        public var directory: String?

        enum CodingKeys: String, CodingKey {
            case name
            case startPoint = "start_point"
            case checkout
            case directory
        }

        /// Creates the options; defaults match the documented ones.
        public init(name: String, startPoint: String? = nil, checkout: Bool = true, directory: String? = nil) {
            self.name = name
            self.startPoint = startPoint
            self.checkout = checkout
            self.directory = directory
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            startPoint = try container.decodeIfPresent(String.self, forKey: .startPoint)
            checkout = try container.decodeIfPresent(Bool.self, forKey: .checkout) ?? true
            directory = try container.decodeIfPresent(String.self, forKey: .directory)
        }
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.branch"
    /// One line for `release steps`.
    public static let summary = "Create a git branch and switch to it"
    /// Options, outputs and an example for `release steps`.
    public static let documentation = StepDocumentation(
        options: [
            .init("name", "string", required: true, "the branch to create, for example release/${steps.bump.outputs.version}"),
            .init("start_point", "string", "the commit or branch to start from (default: HEAD)"),
            .init("checkout", "bool", "switch to the new branch (default true; false only creates it)"),
            .init("directory", "path", "the repository folder (default: the working directory)"),
        ],
        outputs: [.init("branch", "string", "the branch name")],
        example: """
            {"id": "branch", "uses": "git.branch", "needs": ["bump"], "with": {"name": "release/${steps.bump.outputs.version}"}}
            """
    )

    /// The decoded options.
    public let options: Options

    /// Creates a value from its parts.
    public init(options: Options) throws {
        guard GitCommand.isValidRefName(options.name) else {
            throw StepError.invalidOption("name", "'\(options.name)' is not a valid branch name")
        }
        self.options = options
    }

    private var command: [String] {
        options.checkout
            ? GitCommand.createBranch(options.name, startPoint: options.startPoint)
            : GitCommand.branch(options.name, startPoint: options.startPoint)
    }

    public func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        if try await context.gitSucceeds(GitCommand.branchExists(options.name), directory: options.directory) {
            throw StepError.failed("branch '\(options.name)' already exists")
        }
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [.command(argv: command, directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["branch": .string(options.name)])
        )
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await context.git(command, directory: options.directory)
        return StepOutputs(["branch": .string(options.name)])
    }
}
