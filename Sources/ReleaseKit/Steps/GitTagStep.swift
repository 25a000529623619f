/// `git.tag`: create a tag, annotated when it has a message.
public struct GitTagStep: Step {
    /// The step's `with` object.
    public struct Options: StepOptions {
        @StepOption(help: "the tag, for example v${steps.bump.outputs.version}")
        public var name: String
        @StepOption(help: "make an annotated tag with this message")
        public var message: String?
        @StepOption(help: "the commit to tag (default: HEAD)")
        public var ref: String?
        @StepOption(help: "replace an existing tag (false: an existing tag fails verification, unless it already names the commit to tag, which a re-run leaves as it is)")
        public var force: Bool = false
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        public var directory: String?

        public init() {}
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.tag"
    /// One line for `release steps`.
    public static let summary = "Create a git tag (annotated when it has a message)"
    /// The outputs, for `release steps`.
    public static let outputs: [StepDocumentation.Output] = [.init("tag", "string", "the tag name")]
    /// A complete step object, for `release steps`.
    public static let example = """
        {"id": "tag", "uses": "git.tag", "needs": ["commit"], "with": {"name": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}", "message": "Release ${steps.bump.outputs.version}"}}
        """

    /// The decoded options.
    public let options: Options

    /// Creates a value from its parts.
    public init(options: Options) throws {
        guard GitCommand.isValidRefName(options.name) else {
            throw StepError.invalidOption("name", "'\(options.name)' is not a valid tag name")
        }
        self.options = options
    }

    private var command: [String] {
        GitCommand.tag(options.name, message: options.message, ref: options.ref, force: options.force)
    }

    public func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        if !options.force, try await context.gitSucceeds(GitCommand.tagExists(options.name), directory: options.directory),
            try await !alreadyInPlace(context)
        {
            throw StepError.failed("tag '\(options.name)' already exists on another commit (set \"force\": true to move it)")
        }
    }

    /// Whether the tag exists and names the commit it would be created on: a re-run of the same release.
    private func alreadyInPlace(_ context: StepContext) async throws -> Bool {
        guard try await context.gitSucceeds(GitCommand.tagExists(options.name), directory: options.directory) else { return false }
        let tagged = try await context.capture(["git", "rev-parse", "refs/tags/\(options.name)^{commit}"], directory: options.directory)
        let wanted = try await context.capture(["git", "rev-parse", (options.ref ?? "HEAD") + "^{commit}"], directory: options.directory)
        return tagged == wanted
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [.command(argv: command, directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["tag": .string(options.name)])
        )
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        if !options.force, try await alreadyInPlace(context) {
            context.log("tag '\(options.name)' already names this commit")
            return StepOutputs(["tag": .string(options.name)])
        }
        try await context.git(command, directory: options.directory)
        return StepOutputs(["tag": .string(options.name)])
    }
}
