/// `git.branch`: create a branch (and switch to it), for example `release/3.0.1`.
public struct GitBranchStep: Step {
    /// The step's `with` object.
    public struct Options: StepOptions {
        @StepOption(help: "the branch to create, for example release/${steps.bump.outputs.version}")
        public var name: String
        @StepOption(help: "the commit or branch to start from (default: HEAD)")
        public var startPoint: String?
        @StepOption(help: "switch to the new branch (false only creates it)")
        public var checkout: Bool = true
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        public var directory: String?

        public init() {}
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.branch"
    /// One line for `release steps`.
    public static let summary = "Create a git branch and switch to it"
    /// The outputs, for `release steps`.
    public static let outputs: [StepDocumentation.Output] = [.init("branch", "string", "the branch name")]
    /// A complete step object, for `release steps`.
    public static let example = """
        {"id": "branch", "uses": "git.branch", "needs": ["bump"], "with": {"name": "release/${steps.bump.outputs.version}"}}
        """

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
