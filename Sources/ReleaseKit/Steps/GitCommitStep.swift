import Foundation

/// `git.commit`: stage files and commit them.
public struct GitCommitStep: Step {
    /// The step's `with` object (snake_case keys).
    public struct Options: Decodable, Sendable {
        /// See ``documentation``.
        public var message: String
        /// See ``documentation``; `nil` commits every change.
        public var paths: [String]?
        /// See ``documentation``.
        public var allowEmpty: Bool
        /// See ``documentation``.
        public var directory: String?

        enum CodingKeys: String, CodingKey {
            case message
            case paths
            case allowEmpty = "allow_empty"
            case directory
        }

        /// Creates the options; defaults match the documented ones.
        public init(message: String, paths: [String]? = nil, allowEmpty: Bool = false, directory: String? = nil) {
            self.message = message
            self.paths = paths
            self.allowEmpty = allowEmpty
            self.directory = directory
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decode(String.self, forKey: .message)
            paths = try container.decodeIfPresent([String].self, forKey: .paths)
            allowEmpty = try container.decodeIfPresent(Bool.self, forKey: .allowEmpty) ?? false
            directory = try container.decodeIfPresent(String.self, forKey: .directory)
        }
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "git.commit"
    /// One line for `release steps`.
    public static let summary = "Stage files and create a git commit"
    /// Options, outputs and an example for `release steps`.
    public static let documentation = StepDocumentation(
        options: [
            .init("message", "string", required: true, "the commit message"),
            .init("paths", "list", "the files to stage and commit, and only those (default: every change, git add -A); when none of them changed, nothing is committed and the step succeeds, so a re-run converges (an empty list commits nothing)"),
            .init("allow_empty", "bool", "commit even when nothing changed (default false)"),
            .init("directory", "path", "the repository folder (default: the working directory)"),
        ],
        outputs: [
            .init("sha", "string", "the new commit"),
            .init("message", "string", "the commit message"),
        ],
        example: """
            {"id": "commit", "uses": "git.commit", "needs": ["bump"], "with": {"message": "Bump version to ${steps.bump.outputs.version} (${steps.bump.outputs.build})", "paths": ["Demo.xcodeproj/project.pbxproj"]}}
            """
    )

    /// The decoded options.
    public let options: Options

    /// Creates a value from its parts.
    public init(options: Options) throws {
        guard !options.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StepError.invalidOption("message", "the commit message is empty")
        }
        self.options = options
    }

    private func commands(_ context: StepContext) -> [[String]] {
        let paths = (options.paths ?? []).map(context.resolvePath)
        return [GitCommand.add(paths), GitCommand.commit(message: options.message, allowEmpty: options.allowEmpty, paths: paths)]
    }

    /// Whether the named paths hold any change to commit (always true without `paths` or with `allow_empty`).
    private func hasChanges(_ context: StepContext) async throws -> Bool {
        guard let paths = options.paths, !options.allowEmpty else { return true }
        guard !paths.isEmpty else { return false }
        let status = try await context.capture(["git", "status", "--porcelain", "--"] + paths.map(context.resolvePath), directory: options.directory)
        return !status.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    public func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        let directory = options.directory.map(context.resolvePath)
        return StepPlan(
            effects: commands(context).map { .command(argv: $0, directory: directory) },
            outputs: StepOutputs(["message": .string(options.message)])
        )
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        // A re-run whose bump changed nothing has nothing to commit: the commit it made last time stands.
        guard try await hasChanges(context) else {
            context.log("nothing to commit in \((options.paths ?? []).count) path(s); HEAD stays")
            let sha = try await context.capture(GitCommand.head, directory: options.directory)
            return StepOutputs(["sha": .string(sha), "message": .string(options.message)])
        }
        for command in commands(context) {
            try await context.git(command, directory: options.directory)
        }
        let sha = try await context.capture(GitCommand.head, directory: options.directory)
        return StepOutputs(["sha": .string(sha), "message": .string(options.message)])
    }
}
