/// `git.tag`: create a tag, annotated when it has a message.
public struct GitTagStep: Step {
    /// The step's `with` object (snake_case keys).
    public struct Options: Decodable, Sendable {
        /// See ``documentation``.
        public var name: String
        /// See ``documentation``.
        public var message: String?
        /// See ``documentation``.
        public var ref: String?
        /// See ``documentation``.
        public var force: Bool
        /// See ``documentation``.
        public var directory: String?

        enum CodingKeys: String, CodingKey {
            case name, message, ref, force, directory
        }

        /// Creates the options; defaults match the documented ones.
        public init(name: String, message: String? = nil, ref: String? = nil, force: Bool = false, directory: String? = nil) {
            self.name = name
            self.message = message
            self.ref = ref
            self.force = force
            self.directory = directory
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            ref = try container.decodeIfPresent(String.self, forKey: .ref)
            force = try container.decodeIfPresent(Bool.self, forKey: .force) ?? false
            directory = try container.decodeIfPresent(String.self, forKey: .directory)
        }
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.tag"
    /// One line for `release steps`.
    public static let summary = "Create a git tag (annotated when it has a message)"
    /// Options, outputs and an example for `release steps`.
    public static let documentation = StepDocumentation(
        options: [
            .init("name", "string", required: true, "the tag, for example v${steps.bump.outputs.version}"),
            .init("message", "string", "make an annotated tag with this message"),
            .init("ref", "string", "the commit to tag (default: HEAD)"),
            .init("force", "bool", "replace an existing tag (default false: an existing tag fails verification, unless it already names the commit to tag, which a re-run leaves as it is)"),
            .init("directory", "path", "the repository folder (default: the working directory)"),
        ],
        outputs: [.init("tag", "string", "the tag name")],
        example: """
            {"id": "tag", "uses": "git.tag", "needs": ["commit"], "with": {"name": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}", "message": "Release ${steps.bump.outputs.version}"}}
            """
    )

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
           try await !alreadyInPlace(context) {
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
