import Foundation
import ReleaseSupport
import ReleaseVersioning

/// `version.bump`: write the next version and build number where the project defines them.
package struct VersionBumpStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(.path, help: "the .xcodeproj or a folder holding one (default: the working directory)")
        package var project: String?
        @StepOption(.path, help: "a file holding a single version (a VERSION file) instead of an Xcode project")
        package var file: String?
        @StepOption(help: "the part to increment, 'build' for only the build number; this or 'version' is required")
        package var part: Part?
        @StepOption(help: "an explicit version such as 3.1.0, 3.1 or 7.1.3b5")
        package var version: String?
        @StepOption(help: "increment, git-count, timestamp, keep, env:NAME or a number such as 4321")
        package var build: String = "increment"
        @StepOption(help: "bump only these targets and what shares their definitions (default: the app and every target in step with it; extensions follow their app)")
        package var targets: [String] = []
        @StepOption(
            help:
                "the app target being released (default: the project's main app): it, what it embeds and the targets in step with it on its platform move; apps of other platforms keep their versions"
        )
        package var app: String?
        @StepOption(
            help:
                "keep this release's bump when the checkout already carries it (an uncommitted bump, or HEAD's bump commit), so the same commit run again is the same build; false bumps on every run"
        )
        package var converge: Bool = true
        @StepOption(help: "allow a 'version' below the project's (refused otherwise: a release never goes back)")
        package var allowDowngrade: Bool = false
        @StepOption(help: "count the build numbers tag names carry (v3.0.0-4147, testers/3.0.0-4147): a new build is above every one")
        package var tags: Bool = true
        @StepOption(
            must: .notBeEmpty(trimmed: true),
            help:
                "the app's bundle id: with key_id, issuer_id and key, a new build is above every build App Store Connect has for the app, and a build it already has is recognised (output 'shipped')"
        )
        package var bundleID: String?
        @StepOption(help: "App Store Connect API key ID (with bundle_id), e.g. ${env.APP_STORE_CONNECT_KEY_ID}")
        package var keyID: String?
        @StepOption(help: "App Store Connect API issuer ID (with bundle_id), e.g. ${env.APP_STORE_CONNECT_ISSUER_ID}")
        package var issuerID: String?
        @StepOption(help: "the API key's .p8 PEM text (with bundle_id), normally ${secrets.APP_STORE_CONNECT_KEY}")
        package var key: String?
        @StepOption(help: "the App Store Connect API base URL (default $APP_STORE_CONNECT_API_URL, else https://api.appstoreconnect.apple.com)")
        package var api: String?
        @StepOption(help: "App Store Connect's platform of the app: \(ApplePlatform.AppStoreConnectSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling> = .init(.iOS)

        package init() {}

        package static let exclusions: [OptionExclusion] = [
            .atMostOne(["project", "file"], "set 'project' or 'file', not both"),
            .atMostOne(["app", "targets"], at: "app", "set 'app' (the app and what follows it) or 'targets' (exactly those), not both"),
            .exactlyOne(["part", "version"], "set 'part' or 'version', not both", missing: "set 'part' (major, minor, patch, build) or 'version'"),
        ]
    }

    /// The part of the version to increment.
    package enum Part: String, OptionChoice {
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
    package static let kind = "version.bump"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    /// One line for `release steps`.
    package static let summary = "Write the next version and build number where the Xcode project (or VERSION file) defines them"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("version", "string", "the version after the bump"),
        .init("build", "string", "the build number after the bump"),
        .init("previous_version", "string", "the version before"),
        .init("previous_build", "string", "the build number before"),
        .init("files", "list", "the files written (paths)"),
        .init("shipped", "bool", "App Store Connect already has this version and build (asked with bundle_id): nothing to build again"),
        .init("build_id", "string", "App Store Connect's id of that build (empty when not shipped, or still processing)"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        {"id": "bump", "uses": "version.bump", "with": {"project": ".", "part": "patch", "build": "increment"}}
        """

    /// The decoded options.
    package let options: Options
    let choice: VersionChoice
    let strategy: BuildNumberStrategy
    /// App Store Connect, when `bundle_id` names the app.
    let access: AppStoreConnectAccess?

    /// Creates a value from its parts.
    package init(options: Options) throws {
        try options.validate()
        if options.file != nil, !options.targets.isEmpty || options.app != nil {
            throw StepError.invalidOption(options.app != nil ? "app" : "targets", "a version file has no targets")
        }
        if let part = options.part {
            choice = try VersionChoice(parsing: part.rawValue)
        } else if let version = options.version {
            guard let parsed = SemanticVersion(version) else {
                throw StepError.invalidOption("version", "invalid version '\(version)' (expected X, X.Y or X.Y.Z with an optional suffix such as 'b5')")
            }
            choice = .exact(parsed)
        } else {
            throw InternalError("version.bump was given neither 'part' nor 'version' past its exclusions")
        }
        do {
            strategy = try BuildNumberStrategy(parsing: options.build)
        } catch {
            throw StepError.invalidOption("build", "\(error)")
        }
        if let bundleID = options.bundleID {
            guard let keyID = options.keyID, let issuerID = options.issuerID, let key = options.key else {
                let missing = [("key_id", options.keyID), ("issuer_id", options.issuerID), ("key", options.key)].filter { $0.1 == nil }.map { "'\($0.0)'" }
                throw StepError.invalidOption(
                    "bundle_id", "asking App Store Connect for the builds of '\(Echo.text(bundleID))' also needs \(missing.joined(separator: ", "))")
            }
            var group = AppStoreConnectOptions()
            (group.keyID, group.issuerID, group.key, group.api) = (keyID, issuerID, key, options.api)
            try group.validate()
            access = AppStoreConnectAccess(group)
        } else {
            if let given = [("key_id", options.keyID), ("issuer_id", options.issuerID), ("key", options.key), ("api", options.api)].first(where: { $0.1 != nil }) {
                throw StepError.invalidOption(given.0, "App Store Connect is asked only for an app: set 'bundle_id' too")
            }
            access = nil
        }
        self.options = options
    }

    /// Reads the project and plans the bump (read-only; `git-count` runs `git rev-list`).
    func makePlan(_ context: StepContext) async throws -> BumpPlan {
        try await prepare(context).plan
    }

    /// The target whose version names the release: `app`, else the first of `targets`, else the project's main app.
    var releasedTarget: String? { options.app ?? options.targets.first }

    /// What a bump found and will do.
    struct Prepared: Sendable {
        var plan: BumpPlan
        /// What the project read warned about (files the repository lacks).
        var warnings: [String]
        /// The bump the checkout already carries, when it is kept (then the plan is not applied).
        var kept: BumpConvergence.Kept?
        /// Why the bump is what it is, one line each: the release branch's rule, a build number taken elsewhere.
        var notes: [String]
        /// The build App Store Connect already has, when the kept bump is one.
        var shipped: ReleaseHistory.Shipped?
    }

    /// The outputs of a kept bump: the project's values, as the run that made the bump gave them.
    func outputs(kept: BumpConvergence.Kept, _ prepared: Prepared) -> StepOutputs {
        let plan = prepared.plan
        return StepOutputs([
            "version": .string(plan.previousVersion ?? ""),
            "build": .string(plan.previousBuild ?? ""),
            "previous_version": .string(kept.previousVersion ?? ""),
            "previous_build": .string(kept.previousBuild ?? ""),
            "files": .list(kept.files.map { .path($0) }),
            "shipped": .bool(prepared.shipped != nil),
            "build_id": .string(prepared.shipped?.buildID ?? ""),
        ])
    }

    /// The log line of a kept bump: `already at 7.1.4 (12) in HEAD's commit 0123abcd: kept`, and of a build App Store
    /// Connect has: `already shipped: 7.1.4 (12) is in App Store Connect since …; nothing to build`.
    func keptMessage(_ kept: BumpConvergence.Kept, _ prepared: Prepared) -> String {
        let plan = prepared.plan
        let release = "\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-"))"
        if let shipped = prepared.shipped {
            let since = shipped.uploaded.map { " since \($0)" } ?? (shipped.buildID.isEmpty ? " (still processing)" : "")
            return "already shipped: \(release) is in App Store Connect\(since); nothing to build (the same commit is the same build)"
        }
        return "already at \(release) \(kept.reason): kept, the same commit is the same build (\"converge\": false bumps again)"
    }

    /// Reads the project and plans the bump by the release model: on `release/X.Y.Z` the marketing version stays (only
    /// `release bump` or an explicit `version` changes it); a commit that carries its bump keeps it (the same commit is
    /// the same build); any other commit gets a build number above the project's, App Store Connect's and the tags'.
    func prepare(_ context: StepContext) async throws -> Prepared {
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
                targets: options.targets, app: options.app
            )
            let versions = session.versions
            var notes: [String] = []
            let choice = try await releaseChoice(versions, context: context, notes: &notes)
            var kept = options.converge ? try await BumpConvergence(versions: versions, choice: choice, app: releasedTarget).detect(in: context) : nil
            let history = try await history(of: versions, choice: choice, context: context)
            var shipped: ReleaseHistory.Shipped?
            if kept != nil, let build = versions.current(.build, of: releasedTarget), let access, let bundleID = options.bundleID {
                if history.appStoreVersionBuilds.contains(build), let version = versions.current(.version, of: releasedTarget) {
                    shipped = try await ReleaseHistory.shipped(
                        access: access, bundleID: bundleID, version: version, build: build, platform: options.platform.platform, context: context)
                } else if history.isTaken(build) {
                    notes.append(
                        "the bump HEAD carries, build \(build), is taken in App Store Connect (its highest is \(history.highest ?? "-")): this commit gets a new build number")
                    kept = nil
                }
            }
            var build = session.newBuild
            if kept == nil, let proposed = build, strategy.followsHistory {
                build = try history.next(above: proposed)
                if build != proposed { notes.append("build \(build ?? "-"): above \(history.highest ?? "-"), the highest App Store Connect or a tag knows") }
            }
            let plan = try BumpSession(versions: versions, newBuild: build, targets: options.targets, app: options.app).plan(choice)
            if kept == nil, let downgrade = plan.downgradeWarning {
                guard options.allowDowngrade else { throw StepError.invalidOption("version", "\(downgrade): set \"allow_downgrade\": true to go back") }
                notes.append("\(downgrade) (allow_downgrade)")
            }
            return Prepared(plan: plan, warnings: versions.warnings(generated: context.generatedPaths), kept: kept, notes: notes, shipped: shipped)
        } catch let error as VersioningError {
            throw StepError.failed("\(error)")
        }
    }

    /// The choice the release model allows here: on a branch named for a version (`release/3.1.0`) that the project is
    /// at, a `part` bump changes only the build number, since the marketing version lives on the branch; where the
    /// project is one `part` below it (a branch made by hand), the bump is the cut; otherwise a bump is refused (cut
    /// the release with `release bump`). An explicit `version` is the pipeline's own choice and stands.
    func releaseChoice(_ versions: ProjectVersions, context: StepContext, notes: inout [String]) async throws -> VersionChoice {
        if case .exact = choice { return choice }
        let current = try? await context.currentBranch(directory: versions.baseDirectory)
        guard let branch = current?.name, let named = BumpConvergence.versionNamed(byBranch: branch) else { return choice }
        guard let current = versions.current(.version, of: releasedTarget), let currentVersion = SemanticVersion(current) else { return choice }
        if currentVersion != named, case .part = choice, choice.apply(to: currentVersion) == named {
            // The branch was made by hand and this is its first bump: the cut the branch names, once.
            notes.append("on \(branch) the bump cuts \(named), the version the branch names; later commits there move only the build number")
            return choice
        }
        guard currentVersion == named else {
            throw StepError.failed(
                "branch '\(branch)' names version \(named) but the project is at \(current): the marketing version changes only through 'release bump' (run 'release bump \(named)' on a laptop to cut it), or set 'version' in the pipeline"
            )
        }
        guard case .part = choice else { return choice }
        notes.append("on \(branch) the marketing version stays \(current) ('release bump' changes it): only the build number moves")
        return .keep
    }

    /// The builds App Store Connect (with `bundle_id`) and the tags (with `tags`) already know. In a dry run, an App
    /// Store Connect that cannot be asked is a warning: what the bump would do is still shown.
    func history(of versions: ProjectVersions, choice: VersionChoice, context: StepContext) async throws -> ReleaseHistory {
        var history = ReleaseHistory()
        if options.tags {
            history.tagBuilds = ReleaseHistory.builds(inTags: await ReleaseHistory.tags(in: versions.baseDirectory, context: context))
        }
        guard let access, let bundleID = options.bundleID else { return history }
        let current = versions.current(.version, of: releasedTarget).flatMap(SemanticVersion.init)
        let version = current.flatMap { choice.apply(to: $0) }?.description ?? versions.current(.version, of: releasedTarget)
        do {
            let found = try await ReleaseHistory.appStore(
                access: access, bundleID: bundleID, version: version, platform: options.platform.platform, context: context)
            history.appStoreBuilds = found.all
            history.appStoreVersionBuilds = found.version
            history.askedAppStore = true
        } catch {
            guard context.isDryRun else { throw AppStoreConnectAccess.stepError(error) }
            context.warn("not checked against App Store Connect (a real run asks it for the builds of \(bundleID)): \(error)")
        }
        return history
    }

    func outputs(_ plan: BumpPlan) -> StepOutputs {
        StepOutputs([
            "version": .string(plan.version ?? ""),
            "build": .string(plan.build ?? ""),
            "previous_version": .string(plan.previousVersion ?? ""),
            "previous_build": .string(plan.previousBuild ?? ""),
            "files": .list(plan.files.map { .path($0.path) }),
            "shipped": .bool(false),
            "build_id": .string(""),
        ])
    }

    package func verify(in context: StepContext) async throws {
        _ = try await makePlan(context)
    }

    /// The files `run` would write; the warnings `run` would give are given too, so a dry run shows them.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let prepared = try await prepare(context)
        for warning in prepared.warnings { context.warn(warning) }
        let notes = prepared.notes.map(PlannedEffect.note)
        if let kept = prepared.kept {
            return StepPlan(effects: notes + [.note(keptMessage(kept, prepared))], outputs: outputs(kept: kept, prepared))
        }
        let effects: [PlannedEffect] = prepared.plan.files.map { file in
            .writeFile(path: file.path, diff: file.diff, detail: file.isBinary ? "binary property list: \(file.summary)" : file.summary)
        }
        return StepPlan(effects: notes + effects, outputs: outputs(prepared.plan))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let prepared = try await prepare(context)
        for warning in prepared.warnings { context.warn(warning) }
        for note in prepared.notes { context.log(note) }
        if let kept = prepared.kept {
            context.log(keptMessage(kept, prepared))
            return outputs(kept: kept, prepared)
        }
        let plan = prepared.plan
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
