import ReleaseSupport

/// `git.branch`: create a branch (and switch to it), for example `release/3.0.1`.
package struct GitBranchStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the branch to create, for example release/${steps.bump.outputs.version}")
        package var name: String
        @StepOption(help: "the commit or branch to start from (default: HEAD)")
        package var startPoint: String?
        @StepOption(help: "switch to the new branch (false only creates it)")
        package var checkout: Bool = true
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "git.branch"
    /// One line for `release steps`.
    package static let summary = "Create a git branch and switch to it"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [.init("branch", "string", "the branch name")]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "branch", "uses": "git.branch", "needs": ["bump"], "with": {"name": "release/${steps.bump.outputs.version}"}}
        """

    /// The decoded options.
    package let options: Options

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
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

    package func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        if try await context.gitSucceeds(GitCommand.branchExists(options.name), directory: options.directory) {
            throw StepError.failed("branch '\(options.name)' already exists")
        }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [.command(argv: command, directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["branch": .string(options.name)])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        try await context.git(command, directory: options.directory)
        return StepOutputs(["branch": .string(options.name)])
    }
}
