import Foundation
import ReleaseVersioning

/// `gate.versions`: rejects the release when the project's versions are not ready for App Store Connect.
///
/// For one configuration (default `Release`):
/// - every app target and everything it embeds (extensions, widgets, watch apps, App Clips) has the marketing
///   version and build number of its host app (top-level apps: of the primary app), since App Store Connect
///   rejects an extension whose versions differ from its app's;
/// - the version and build number are one to three dot-separated integers (`3.0.0`, `4321`);
/// - the version equals `expected_version` and the build `expected_build`, when given;
/// - with `tag_pattern`, the version is greater than the greatest version among the tags matching it, and the
///   build number greater than the greatest build number those tags carry; a tag on `HEAD` that carries this
///   very version and build is this release's own (a re-run after the release was tagged) and does not count.
///
/// Reading a tag: its version is the first `X.Y` or `X.Y.Z` in it (`v3.0.0-4321_2014-10-22T06-01-18Z` → `3.0.0`;
/// tags without one are ignored); its build number is, with `build_pattern`, the first capture group of that
/// regular expression (or the whole match), else the digits right after the version and one `-`, `+` or `_`
/// (`v3.0.0-4321_…` and `v3.0.0+4321` → `4321`; `v3.0.0-beta1` carries none). Versions and builds compare
/// numerically, component by component.
package struct VersionsGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, help: "the .xcodeproj or a folder holding one (default: the working directory)")
        package var project: String?
        @StepOption(.path, help: "a VERSION file instead of an Xcode project")
        package var file: String?
        @StepOption(help: "the build configuration to check (default Release)")
        package var configuration: String?
        @StepOption(
            .glob, must: .notBeEmpty("the pattern is empty"), help: "release tags (git tag --list PATTERN, e.g. v*): the version must be greater than the first X.Y[.Z] of each")
        package var tagPattern: String?
        @StepOption(.regex, help: "where a tag carries its build number (first capture group); default: digits right after the version and '-', '+' or '_'")
        package var buildPattern: String?
        @StepOption(help: "the version the project must be at, e.g. ${steps.bump.outputs.version}")
        package var expectedVersion: String?
        @StepOption(help: "the build number the project must be at, e.g. ${steps.bump.outputs.build}")
        package var expectedBuild: String?
        @StepOption(.path, help: "the git repository holding the tags (default: the working directory)")
        package var directory: String?

        package init() {}

        package static let exclusions: [OptionExclusion] = [.atMostOne(["project", "file"], "set 'project' or 'file', not both")]
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "gate.versions"
    /// One line for `release steps`.
    package static let summary = "Reject the release when app targets disagree on versions, or the version is malformed or not above the last release tag"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("version", "string", "the app's marketing version"),
        .init("build", "string", "the app's build number"),
        .init("latest_tag", "string", "the greatest release tag found (empty when none)"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        { "id": "check-versions", "uses": "gate.versions", "gate": true, "needs": ["bump"],
          "with": { "project": "Demo.xcodeproj", "configuration": "Release", "tag_pattern": "v*",
                    "expected_version": "${steps.bump.outputs.version}" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for conflicting sources, an empty pattern, or a bad regex.
    package init(options: Options) throws {
        try options.validate()
        if options.file != nil, options.configuration != nil {
            throw StepError.invalidOption("configuration", "a version file has no configurations")
        }
        if let pattern = options.buildPattern {
            guard options.tagPattern != nil else { throw StepError.invalidOption("build_pattern", "reads tags, but 'tag_pattern' is not set") }
            do { _ = try Regex(pattern) } catch {
                throw StepError.invalidOption("build_pattern", "'\(pattern)' is not a regular expression: \(error)")
            }
        }
        if let version = options.expectedVersion, Self.integers(version) == nil {
            throw StepError.invalidOption("expected_version", "'\(version)' is not one to three dot-separated integers")
        }
        self.options = options
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    private var configuration: String { options.configuration ?? "Release" }

    func read(_ context: StepContext) throws -> VersionReport {
        do {
            return try VersionReader.read(project: options.project, file: options.file, in: context.workingDirectory).report
        } catch {
            throw StepError.failed("\(error)")
        }
    }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        if let project = options.project { try context.requireFile(project, option: "project") }
        if let file = options.file { try context.requireFile(file, option: "file") }
        if options.tagPattern != nil { try await context.requireGitRepository(options.directory) }
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        var checks = ["app targets agree on version and build in \(options.file == nil ? configuration : "the version file")", "the version is well formed"]
        if let pattern = options.tagPattern { checks.append("the version and build are greater than those of tags '\(pattern)'") }
        return StepPlan(effects: [.note("check that " + checks.joined(separator: ", "))])
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let report = try read(context)
        let entries = try configurationEntries(report)
        let apps = entries.filter { entry in
            report.kind == .file || entry.host != nil || (entry.productType?.hasPrefix("com.apple.product-type.application") ?? false)
        }
        let primary = apps.first { $0.target == report.primaryTarget } ?? apps.first { $0.host == nil } ?? apps.first
        guard let primary else {
            throw StepError.rejected(["'\(report.project)' has no app target in configuration '\(configuration)'"])
        }
        var problems = agreementProblems(apps: apps, entries: entries, primary: primary) + formProblems(primary)
        var latestTag = ""
        if let pattern = options.tagPattern {
            let above = try await releaseTagProblems(primary, pattern: pattern, context: context)
            latestTag = above.latestTag
            problems += above.problems
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        let version = primary.version ?? ""
        let build = primary.build ?? ""
        context.log("\(apps.count) app \(apps.count == 1 ? "target" : "targets") at \(version) (\(build))" + (latestTag.isEmpty ? "" : ", above release tag '\(latestTag)'"))
        return StepOutputs(["version": .string(version), "build": .string(build), "latest_tag": .string(latestTag)])
    }

    /// The entries of the configuration checked (every entry of a version file).
    /// - Throws: ``StepError/invalidOption(_:_:)`` when the project has no such configuration.
    private func configurationEntries(_ report: VersionReport) throws -> [VersionEntry] {
        if report.kind == .file { return report.entries }
        let entries = report.entries.filter { $0.configuration == configuration }
        if entries.isEmpty {
            let names = Set(report.entries.compactMap(\.configuration)).sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw StepError.invalidOption("configuration", "'\(report.project)' has no configuration '\(configuration)' (configurations: \(names))")
        }
        return entries
    }

    /// `'Demo' (Release)`: an entry as problems name it.
    private static func name(_ entry: VersionEntry) -> String {
        entry.configuration.map { "'\(entry.target)' (\($0))" } ?? "'\(entry.target)'"
    }

    /// `, defined at FILE:LINE`, or nothing.
    private static func place(_ location: DefinitionLocation?) -> String {
        location.map { ", defined at \($0)" } ?? ""
    }

    /// Every app-like target against its host (or the primary app).
    private func agreementProblems(apps: [VersionEntry], entries: [VersionEntry], primary: VersionEntry) -> [String] {
        let name = Self.name, place = Self.place
        var problems: [String] = []
        for entry in apps where entry.target != primary.target {
            let reference = entry.host.flatMap { host in entries.first { $0.target == host } } ?? primary
            let relation = entry.host != nil ? "its app" : "the app"
            if entry.version != reference.version {
                problems.append(
                    "\(name(entry)) has version '\(entry.version ?? "")'\(place(entry.versionDefinedAt)), expected '\(reference.version ?? "")' like \(relation) '\(reference.target)'"
                )
            }
            if entry.build != reference.build {
                problems.append(
                    "\(name(entry)) has build '\(entry.build ?? "")'\(place(entry.buildDefinedAt)), expected '\(reference.build ?? "")' like \(relation) '\(reference.target)'")
            }
        }
        return problems
    }

    /// The primary app's version and build: well formed for App Store Connect, and the expected ones.
    private func formProblems(_ primary: VersionEntry) -> [String] {
        let name = Self.name, place = Self.place
        let version = primary.version ?? ""
        let build = primary.build ?? ""
        var problems: [String] = []
        if Self.integers(version) == nil {
            problems.append(
                version.isEmpty
                    ? "\(name(primary)) has no version (CFBundleShortVersionString / MARKETING_VERSION)"
                    : "\(name(primary)) has version '\(version)'\(place(primary.versionDefinedAt)), expected one to three dot-separated integers for App Store Connect")
        }
        if Self.integers(build) == nil {
            problems.append(
                build.isEmpty
                    ? "\(name(primary)) has no build number (CFBundleVersion / CURRENT_PROJECT_VERSION)"
                    : "\(name(primary)) has build '\(build)'\(place(primary.buildDefinedAt)), expected one to three dot-separated integers for App Store Connect")
        }
        if let expected = options.expectedVersion, expected != version {
            problems.append("\(name(primary)) has version '\(version)'\(place(primary.versionDefinedAt)), expected '\(expected)' (expected_version)")
        }
        if let expected = options.expectedBuild, expected != build {
            problems.append("\(name(primary)) has build '\(build)'\(place(primary.buildDefinedAt)), expected '\(expected)' (expected_build)")
        }
        return problems
    }

    /// The primary app's version and build against the latest release tags matching `pattern`: the latest version
    /// tag, and the problems when the app is not above them.
    private func releaseTagProblems(_ primary: VersionEntry, pattern: String, context: StepContext) async throws -> (latestTag: String, problems: [String]) {
        let name = Self.name, place = Self.place
        let version = primary.version ?? ""
        let build = primary.build ?? ""
        let latest = try await latestReleaseTags(pattern: pattern, version: version, build: build, context: context)
        var problems: [String] = []
        var latestTag = ""
        if let latest = latest.version {
            latestTag = latest.tag
            if let current = Self.integers(version), Self.compare(current, latest.value) <= 0 {
                problems.append(
                    "\(name(primary)) has version '\(version)'\(place(primary.versionDefinedAt)), expected greater than '\(latest.value.map(String.init).joined(separator: "."))' of release tag '\(latest.tag)'"
                )
            }
        }
        if let latest = latest.build, let current = Self.integers(build), Self.compare(current, latest.value) <= 0 {
            problems.append("\(name(primary)) has build '\(build)'\(place(primary.buildDefinedAt)), expected greater than '\(latest.text)' of release tag '\(latest.tag)'")
        }
        return (latestTag, problems)
    }

    /// The tags matching `pattern` with the greatest version and the greatest build, leaving out this release's own
    /// tag on HEAD (from an earlier run of the same pipeline: nothing to be above).
    private func latestReleaseTags(pattern: String, version: String, build: String, context: StepContext) async throws
        -> (version: (tag: String, value: [Int])?, build: (tag: String, text: String, value: [Int])?)
    {
        let listed = try await context.capture(["git", "tag", "--list", pattern], directory: options.directory)
        let onHead = try await context.capture(["git", "tag", "--list", pattern, "--points-at", "HEAD"], directory: options.directory)
        let headTags = Set(onHead.split(separator: "\n").map(String.init))
        let tags = listed.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let buildRegex = try options.buildPattern.map { try Regex($0) }
        var latestVersion: (tag: String, value: [Int])?
        var latestBuild: (tag: String, text: String, value: [Int])?
        for tag in tags {
            guard let (tagVersion, end) = Self.version(inTag: tag) else { continue }
            let buildText = buildRegex.map { Self.build(inTag: tag, regex: $0) } ?? Self.build(inTag: tag, after: end)
            if headTags.contains(tag), let current = Self.integers(version), Self.compare(tagVersion, current) == 0,
                buildText.map({ $0 == build }) ?? true
            {
                continue
            }
            if latestVersion.map({ Self.compare(tagVersion, $0.value) > 0 }) ?? true { latestVersion = (tag, tagVersion) }
            if let buildText, let value = Self.integers(buildText),
                latestBuild.map({ Self.compare(value, $0.value) > 0 }) ?? true
            {
                latestBuild = (tag, buildText, value)
            }
        }
        return (latestVersion, latestBuild)
    }

    // MARK: Rules

    /// The components of one to three dot-separated integers (`3.0.0`, `4321`), or nil.
    static func integers(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var values: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 18, part.allSatisfy(\.isASCIIDigitCharacter), let value = Int(part) else { return nil }
            values.append(value)
        }
        return values
    }

    /// Compares component by component; a missing component counts as zero.
    static func compare(_ lhs: [Int], _ rhs: [Int]) -> Int {
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }

    /// The first `X.Y` or `X.Y.Z` in a tag, and where it ends.
    static func version(inTag tag: String) -> ([Int], String.Index)? {
        guard let match = tag.firstMatch(of: /(?:^|[^0-9.])([0-9]+\.[0-9]+(?:\.[0-9]+)?)(?![0-9])/) else { return nil }
        guard let value = integers(String(match.output.1)) else { return nil }
        return (value, match.output.1.endIndex)
    }

    /// The default rule: digits right after the version and one `-`, `+` or `_`, ending the tag or followed by a
    /// character that is neither a digit nor a dot.
    static func build(inTag tag: String, after end: String.Index) -> String? {
        let rest = tag[end...]
        guard let match = rest.prefixMatch(of: /[-+_]([0-9]+)(?:$|[^0-9.])/) else { return nil }
        return String(match.output.1)
    }

    /// `build_pattern`: its first capture group, or the whole match.
    static func build(inTag tag: String, regex: Regex<AnyRegexOutput>) -> String? {
        guard let match = tag.firstMatch(of: regex) else { return nil }
        if match.output.count > 1, let group = match.output[1].substring { return String(group) }
        return String(tag[match.range])
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
