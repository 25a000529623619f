import ReleaseSupport

/// `git.tag`: create a tag, annotated when it has a message.
package struct GitTagStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the tag, for example v${steps.bump.outputs.version}")
        package var name: String
        @StepOption(help: "make an annotated tag with this message")
        package var message: String?
        @StepOption(help: "the commit to tag (default: HEAD)")
        package var ref: String?
        @StepOption(
            help:
                "move an existing tag to this commit, only for who means it: a tag records what was built from its commit (false: an existing tag fails verification, unless it already names the commit to tag, which a re-run leaves as it is)"
        )
        package var force: Bool = false
        @StepOption(
            help:
                "who an annotated tag is by, 'Name <email>', for this tag only (default: git's configured identity; where git has none, as on a hosted CI runner, the CI's actor in the host's no-reply form, else release <release@localhost>; never written to git's configuration)"
        )
        package var author: String?
        @StepOption(.path, help: "the repository folder (default: the working directory)")
        package var directory: String?

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "git.tag"
    package static let exportTraits = ExportTraits(writesRepository: true)
    /// One line for `release steps`.
    package static let summary = "Create a git tag (annotated when it has a message)"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [.init("tag", "string", "the tag name")]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "tag", "uses": "git.tag", "needs": ["commit"], "with": {"name": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}", "message": "Release ${steps.bump.outputs.version}"}}
        """

    /// The decoded options.
    package let options: Options
    /// The `author` option, checked.
    let author: GitIdentity?

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
        guard GitCommand.isValidRefName(options.name) else {
            throw StepError.invalidOption("name", "'\(options.name)' is not a valid tag name")
        }
        if options.author != nil, options.message == nil {
            throw StepError.invalidOption("author", "a tag without 'message' is a lightweight tag, which records no author: add a message, or leave 'author' out")
        }
        do {
            author = try options.author.map { text throws(GitIdentity.Problem) in try GitIdentity(parsing: text) }
        } catch {
            throw StepError.invalidOption("author", error.description)
        }
        self.options = options
    }

    /// The `git tag` command; an annotated tag records a tagger, so it gets an identity where git has none.
    private func command(_ context: StepContext, announce: Bool) async throws -> [String] {
        let tag = GitCommand.tag(options.name, message: options.message, ref: options.ref, force: options.force)
        guard options.message != nil else { return tag }
        return GitCommand.configured(tag, try await context.gitIdentityOptions(author: author, directory: options.directory, announce: announce))
    }

    package func verify(in context: StepContext) async throws {
        try await context.requireGitRepository(options.directory)
        guard !options.force, let (tagged, wanted) = try await commits(context), tagged != wanted else { return }
        // Tags never move: the tag is the record of what was built (and uploaded) from that commit.
        throw StepError.failed(
            "tag '\(options.name)' already exists on commit \(tagged.prefix(12)), not on \(wanted.prefix(12)) (\(options.ref ?? "HEAD")): "
                + "\(tagged.prefix(12)) was built before as this build, and tags never move; a new commit gets a new build number and so "
                + "a new tag (let the bump give it the next build), or re-run on the tagged commit \(tagged.prefix(12)) to converge"
        )
    }

    /// The commit the tag names and the one it would be created on, when the tag exists.
    private func commits(_ context: StepContext) async throws -> (tagged: String, wanted: String)? {
        guard try await context.gitSucceeds(GitCommand.tagExists(options.name), directory: options.directory) else { return nil }
        let tagged = try await context.capture(["git", "rev-parse", "refs/tags/\(options.name)^{commit}"], directory: options.directory)
        let wanted = try await context.capture(["git", "rev-parse", (options.ref ?? "HEAD") + "^{commit}"], directory: options.directory)
        return (tagged, wanted)
    }

    /// Whether the tag exists and names the commit it would be created on: a re-run of the same release.
    private func alreadyInPlace(_ context: StepContext) async throws -> Bool {
        guard let (tagged, wanted) = try await commits(context) else { return false }
        return tagged == wanted
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(
            effects: [.command(argv: try await command(context, announce: false), directory: options.directory.map(context.resolvePath))],
            outputs: StepOutputs(["tag": .string(options.name)])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        if !options.force, try await alreadyInPlace(context) {
            context.log("tag '\(options.name)' already names this commit")
            return StepOutputs(["tag": .string(options.name)])
        }
        try await context.git(try await command(context, announce: true), directory: options.directory)
        return StepOutputs(["tag": .string(options.name)])
    }
}
