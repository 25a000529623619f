import Foundation

/// `version.bump`: write the next version and build number where the project defines them.
public struct VersionBumpStep: Step {
    /// The step's `with` object.
    public struct Options: StepOptions {
        @StepOption(.path, help: "the .xcodeproj or a folder holding one (default: the working directory)")
        public var project: String?
        @StepOption(.path, help: "a file holding a single version (a VERSION file) instead of an Xcode project")
        public var file: String?
        @StepOption(help: "the part to increment, 'build' for only the build number; this or 'version' is required")
        public var part: Part?
        @StepOption(help: "an explicit version such as 3.1.0, 3.1 or 7.1.3b5")
        public var version: String?
        @StepOption(help: "increment, git-count, timestamp, keep, env:NAME or a number such as 4321")
        public var build: String = "increment"
        @StepOption(help: "bump only these targets and what shares their definitions (default: the app and every target in step with it; extensions follow their app)")
        public var targets: [String] = []
        @StepOption(
            help:
                "keep this release's bump when the checkout already carries it (an uncommitted bump, HEAD's bump commit, or a release/X.Y.Z branch at X.Y.Z), so a re-run bumps once; false bumps on every run"
        )
        public var converge: Bool = true

        public init() {}
    }

    /// The part of the version to increment.
    public enum Part: String, OptionChoice {
        /// X in X.Y.Z; Y and Z restart at 0.
        case major
        /// Y in X.Y.Z; Z restarts at 0.
        case minor
        /// Z in X.Y.Z.
        case patch
        /// Only the build number.
        case build
    }

    /// The stable kind pipelines use in `uses`.
    public static let kind = "version.bump"
    /// One line for `release steps`.
    public static let summary = "Write the next version and build number where the Xcode project (or VERSION file) defines them"
    /// The outputs, for `release steps`.
    public static let outputs: [StepDocumentation.Output] = [
        .init("version", "string", "the version after the bump"),
        .init("build", "string", "the build number after the bump"),
        .init("previous_version", "string", "the version before"),
        .init("previous_build", "string", "the build number before"),
        .init("files", "list", "the files written (paths)"),
    ]
    /// A complete step object, for `release steps`.
    public static let example = """
        {"id": "bump", "uses": "version.bump", "with": {"project": ".", "part": "patch", "build": "increment"}}
        """

    /// The decoded options.
    public let options: Options
    let choice: VersionChoice
    let strategy: BuildNumberStrategy

    /// Creates a value from its parts.
    public init(options: Options) throws {
        if options.project != nil, options.file != nil {
            throw StepError.invalidOption("file", "set 'project' or 'file', not both")
        }
        if options.file != nil, !options.targets.isEmpty {
            throw StepError.invalidOption("targets", "a version file has no targets")
        }
        switch (options.part, options.version) {
        case (let part?, nil):
            choice = try VersionChoice(parsing: part.rawValue)
        case (nil, let version?):
            guard let parsed = SemanticVersion(version) else {
                throw StepError.invalidOption("version", "invalid version '\(version)' (expected X, X.Y or X.Y.Z with an optional suffix such as 'b5')")
            }
            choice = .exact(parsed)
        case (.some, .some):
            throw StepError.invalidOption("version", "set 'part' or 'version', not both")
        case (nil, nil):
            throw StepError.invalidOption("part", "set 'part' (major, minor, patch, build) or 'version'")
        }
        do {
            strategy = try BuildNumberStrategy(parsing: options.build)
        } catch {
            throw StepError.invalidOption("build", "\(error)")
        }
        self.options = options
    }

    /// Reads the project and plans the bump (read-only; `git-count` runs `git rev-list`).
    func makePlan(_ context: StepContext) async throws -> BumpPlan {
        try await prepare(context).plan
    }

    /// The outputs of a kept bump: the project's values, as the run that made the bump gave them.
    func outputs(kept: BumpConvergence.Kept, versions plan: BumpPlan) -> StepOutputs {
        StepOutputs([
            "version": .string(plan.previousVersion ?? ""),
            "build": .string(plan.previousBuild ?? ""),
            "previous_version": .string(kept.previousVersion ?? ""),
            "previous_build": .string(kept.previousBuild ?? ""),
            "files": .list(kept.files.map { .path($0) }),
        ])
    }

    /// The log line of a kept bump: `already at 7.1.4 (12) on release/7.1.4: kept`.
    func keptMessage(_ kept: BumpConvergence.Kept, versions plan: BumpPlan) -> String {
        "already at \(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) \(kept.reason): kept (\"converge\": false bumps again)"
    }

    /// Reads the project and plans the bump; also what the read warned about (files the repository lacks), and,
    /// with `converge`, the bump the checkout already carries (then the plan is not applied).
    func prepare(_ context: StepContext) async throws -> (plan: BumpPlan, warnings: [String], kept: BumpConvergence.Kept?) {
        do {
            let session = try await BumpSession.prepare(
                project: options.project, file: options.file, in: context.workingDirectory, strategy: strategy,
                environment: context.environment, now: context.now,
                commitCount: { directory in
                    let output = try await context.capture(GitCommand.commitCount, directory: directory)
                    guard let count = Int(output) else {
                        throw StepError.failed("'git rev-list --count HEAD' printed '\(output)', not a number")
                    }
                    return count
                },
                targets: options.targets
            )
            let kept = options.converge ? try await BumpConvergence(versions: session.versions, choice: choice).detect(in: context) : nil
            return (try session.plan(choice), session.versions.report.warnings ?? [], kept)
        } catch let error as VersioningError {
            throw StepError.failed("\(error)")
        }
    }

    func outputs(_ plan: BumpPlan) -> StepOutputs {
        StepOutputs([
            "version": .string(plan.version ?? ""),
            "build": .string(plan.build ?? ""),
            "previous_version": .string(plan.previousVersion ?? ""),
            "previous_build": .string(plan.previousBuild ?? ""),
            "files": .list(plan.files.map { .path($0.path) }),
        ])
    }

    public func verify(in context: StepContext) async throws {
        _ = try await makePlan(context)
    }

    /// The files `run` would write; the warnings `run` would give are given too, so a dry run shows them.
    public func plan(in context: StepContext) async throws -> StepPlan {
        let (plan, warnings, kept) = try await prepare(context)
        for warning in warnings { context.warn(warning) }
        if let kept {
            return StepPlan(effects: [.note(keptMessage(kept, versions: plan))], outputs: outputs(kept: kept, versions: plan))
        }
        let effects: [PlannedEffect] = plan.files.map { file in
            .writeFile(path: file.path, diff: file.diff, detail: file.isBinary ? "binary property list: \(file.summary)" : file.summary)
        }
        return StepPlan(effects: effects, outputs: outputs(plan))
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let (plan, warnings, kept) = try await prepare(context)
        for warning in warnings { context.warn(warning) }
        if let kept {
            context.log(keptMessage(kept, versions: plan))
            return outputs(kept: kept, versions: plan)
        }
        do {
            // The run holds the checkout's lock; the next one rolls back a bump this process could not finish.
            try FileTransaction.apply(plan.files, journal: try FileTransaction.journalFolder(for: context.workingDirectory))
        } catch let error as VersioningError {
            throw StepError.failed("\(error)")
        }
        context.log("\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) -> \(plan.version ?? "-") (\(plan.build ?? "-"))")
        for note in plan.notes { context.log("note: \(note)") }
        for change in plan.changes {
            context.log("\(change.file)\(change.line.map { ":\($0)" } ?? ""): \(change.key) \(change.old) -> \(change.new)")
        }
        return outputs(plan)
    }
}
