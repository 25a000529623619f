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
            .init("force", "bool", "replace an existing tag (default false: an existing tag fails verification)"),
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
        if !options.force, try await context.gitSucceeds(GitCommand.tagExists(options.name), directory: options.directory) {
            throw StepError.failed("tag '\(options.name)' already exists (set \"force\": true to move it)")
        }
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [.command(argv: command, directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["tag": .string(options.name)])
        )
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await context.git(command, directory: options.directory)
        return StepOutputs(["tag": .string(options.name)])
    }
}
