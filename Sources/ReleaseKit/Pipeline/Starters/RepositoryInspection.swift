import Foundation
import ReleaseGitHub
import ReleaseSteps
import ReleaseSupport
import ReleaseVersioning

/// What `release init` finds in a repository and what it chooses from it: the project (and the workspace that
/// builds it), the apps and their platforms, the shared scheme that archives the chosen app, how the project is
/// generated (XcodeGen, Tuist, CocoaPods), the team, an existing fastlane set-up, the pinned Xcode and the GitHub
/// remote. Everything is read from files; nothing is run. ``reasons`` says why each choice was made.
package struct RepositoryInspection: Sendable, Equatable {
    /// An application target the project ships.
    package struct App: Sendable, Equatable {
        /// The target's name (`BlueprintName` in schemes).
        package var target: String
        package var platform: ApplePlatform
        package var bundleIdentifier: String?
        package var team: String?
        /// The marketing version and build in the archive configuration.
        package var version: String?
        package var build: String?
        /// Where the version is defined, `Config/Version.xcconfig:3`.
        package var versionDefinedAt: String?
    }

    /// What the user answered on the command line (`--project`, `--workspace`, `--scheme`, `--target`, `--platform`).
    package struct Answers: Sendable, Equatable {
        package var project: String?
        package var workspace: String?
        package var scheme: String?
        package var target: String?
        package var platform: String?
        /// The Apple team ID that signs, when the project does not say.
        package var team: String?

        package init(
            project: String? = nil, workspace: String? = nil, scheme: String? = nil, target: String? = nil, platform: String? = nil,
            team: String? = nil
        ) {
            self.team = team
            self.project = project
            self.workspace = workspace
            self.scheme = scheme
            self.target = target
            self.platform = platform
        }
    }

    /// Why `init` cannot write a pipeline: no project, an answer that names nothing there.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// An existing fastlane set-up's answers (`fastlane/Appfile`, `fastlane/Matchfile`).
    package struct Fastlane: Sendable, Equatable {
        package var appIdentifier: String?
        package var teamID: String?
        /// match's `type`: appstore, adhoc, development, enterprise.
        package var matchType: String?
    }

    /// How the app and what it embeds are signed in the archive configuration, through xcconfig includes.
    package struct Signing: Sendable, Equatable {
        /// A target and its settings.
        package struct Target: Sendable, Equatable {
            package var name: String
            package var settings: SigningSettings
        }

        /// Targets (the app first, then what it embeds) with their settings.
        package var targets: [Target]

        /// Targets that sign manually (`CODE_SIGN_STYLE = Manual`).
        package var manual: [String] { targets.filter { $0.settings.isManual }.map(\.name) }
        /// Whether Xcode would refuse `CODE_SIGN_STYLE=Automatic` on top: a manual style, a profile specifier or a
        /// distribution identity somewhere.
        package var conflictsWithAutomatic: Bool {
            targets.contains { $0.settings.isManual || $0.settings.profileSpecifier != nil || $0.settings.hasDistributionIdentity }
        }
        /// fastlane match's profile specifier (`match AppStore com.example.app`), when one names it.
        package var matchSpecifier: String? { targets.lazy.compactMap(\.settings.profileSpecifier).first { $0.hasPrefix("match ") } }
    }

    /// The `.xcodeproj` relative to the repository (the version engine's project; for a generated project not in
    /// git, the XcodeGen spec).
    package var project: String?
    /// The `.xcodeproj` XcodeGen writes when the repository holds only the spec (`NAME.xcodeproj` beside it): what
    /// xcodebuild builds once the pipeline generated it.
    package var generatedProject: String?
    /// Whether ``workspace`` is not in the repository and `pod install` makes it.
    package var workspaceCreatedByPods = false
    /// The `Gemfile`, when the repository has one.
    package var gemfile: String?
    /// The tools the Gemfile pins that the pipeline runs (`cocoapods`, `xcodegen`, `fastlane`): run with `bundle exec`.
    package var bundledTools: [String] = []
    /// The archive configuration's signing for the app and what it embeds.
    package var signing: Signing?
    /// The bundle ids of what the app embeds and signs with a profile of its own (app extensions, a watch app and its
    /// extension, an App Clip), in the project's order: each needs its own provisioning profile.
    package var embeddedBundleIdentifiers: [String] = []
    /// The signing `init` proposes for the project, with why, when the default (the API key) does not fit.
    package var proposedSigning: Proposal?

    /// A signing `init` proposes and why.
    package struct Proposal: Sendable, Equatable {
        /// `files`, `sync`: a ``StarterPipeline/Signing`` raw value.
        package var choice: String
        package var reason: String
    }
    /// fastlane's Gymfile or Fastfile `gym`/`build_app` answers: scheme, configuration, export method.
    package var gym: [String: String] = [:]
    /// The `.xcworkspace` xcodebuild builds, when the app's project is in one (or CocoaPods will make one).
    package var workspace: String?
    /// The XcodeGen spec the project is generated from.
    package var xcodegenSpec: String?
    /// A Tuist manifest (`Project.swift` / `Workspace.swift`) at the root.
    package var tuistManifest: String?
    /// The `Podfile`, when the project uses CocoaPods.
    package var podfile: String?
    /// Whether the project resolves Swift packages (a `Package.resolved` beside it or in its workspace).
    package var usesSwiftPackages: Bool
    /// Every application target that is not embedded in another, iOS first.
    package var apps: [App]
    /// The chosen app.
    package var app: App?
    /// Every shared scheme visible to the build (the project's and the workspace's), by name.
    package var schemes: [XcodeScheme]
    /// The scheme to archive.
    package var scheme: String?
    /// Its archive configuration.
    package var configuration: String
    package var fastlane: Fastlane?
    /// The Xcode the project builds with: `.xcode-version`'s content, else the one its CI selects.
    package var xcodeVersion: String?
    /// Where ``xcodeVersion`` comes from: `.xcode-version`, or `FILE:LINE` of the CI configuration that selects it.
    package var xcodeVersionSource: String?
    /// `owner/name` of the GitHub remote (`origin` first).
    package var githubRepository: String?
    /// Why each choice was made, one line each, for the person running `init`.
    package var reasons: [String]
    /// What could not be read, or should be done by hand, said plainly.
    package var notes: [String]

    /// Names of the shared schemes.
    package var schemeNames: [String] { schemes.map(\.name) }
    /// The app target's name.
    package var appTarget: String? { app?.target }
    package var bundleIdentifier: String? { app?.bundleIdentifier ?? fastlane?.appIdentifier }
    package var team: String? { [app?.team, fastlane?.teamID].compactMap { $0 }.first(where: Self.isTeamID) }
    package var version: String? { app?.version }
    package var build: String? { app?.build }

    /// Inspects the repository at `directory`.
    /// - Throws: ``Problem`` when there is no project, or an answer names a project, workspace, target, platform or
    ///   scheme that is not there (the message lists what is).
    package static func inspect(_ directory: String, answers: Answers = Answers()) throws -> RepositoryInspection {
        var result = RepositoryInspection(usesSwiftPackages: false, apps: [], schemes: [], configuration: "Release", reasons: [], notes: [])
        let root = FilePath.absolute(directory)
        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: FilePath.absolute(relative, in: root)) }

        // The workspace the user named decides the project when they did not name one.
        var projectAnswer = answers.project
        var namedWorkspace: XcodeWorkspace?
        if let workspace = answers.workspace {
            guard workspace.hasSuffix(".xcworkspace"), exists(workspace) else {
                throw Problem(description: "--workspace '\(Echo.text(workspace))': no such .xcworkspace in \(root)")
            }
            let read = try? XcodeWorkspace(contentsOf: FilePath.absolute(workspace, in: root))
            guard let read, !read.projects.isEmpty else {
                throw Problem(description: "--workspace '\(Echo.text(workspace))' references no .xcodeproj")
            }
            namedWorkspace = read
            if projectAnswer == nil {
                projectAnswer = read.projects.first { project in
                    ((try? VersionReader.read(project: project, in: root))?.tracked.contains { $0.entry.productType?.hasPrefix("com.apple.product-type.application") == true })
                        == true
                }.map { relative($0, to: root) }
            }
        }
        if let project = projectAnswer, !exists(project) {
            throw Problem(description: "--project '\(Echo.text(project))': no such file or folder in \(root)")
        }

        let versions: ProjectVersions
        do {
            versions = try VersionReader.read(project: projectAnswer, in: root)
        } catch VersioningError.noProject {
            throw Problem(
                description:
                    "no Xcode project (.xcodeproj), workspace or XcodeGen spec (project.yml) in \(root) or the folders below it: run 'release init' in the repository that holds your app, or pass --project PATH"
            )
        } catch VersioningError.ambiguousProject(_, let candidates) {
            throw Problem(description: "several Xcode projects here: \(candidates.joined(separator: ", ")); pass --project with the one that holds the app (or --workspace)")
        } catch {
            throw Problem(description: "cannot read the project: \(error)")
        }
        // What is read must be the repository's own: a project.pbxproj (or spec) that is a symlink out of it is not.
        let canonicalRoot = Platform.canonicalPath(root) ?? root
        for file in [versions.project?.projectFile, versions.xcodegen?.projectFile].compactMap({ $0 }) {
            if let real = Platform.canonicalPath(file), FilePath.relative(real, to: canonicalRoot) == nil {
                throw Problem(
                    description: "'\(Echo.text(relative(file, to: root)))' is a symbolic link to '\(Echo.text(real))', outside the repository \(root): refused")
            }
        }
        let report = versions.report
        result.xcodegenSpec = report.xcodegenSpec.map { relative($0, to: root) }
        let projectPath = versions.project?.path
        result.project = projectPath.map { relative($0, to: root) } ?? relative(report.project, to: root)
        // Only the spec in the repository: the project is generated from it.
        if result.xcodegenSpec == nil, let project = result.project, XcodeGenSpec.isSpec(project) { result.xcodegenSpec = project }
        if let tuist = ["Workspace.swift", "Project.swift"].first(where: exists) { result.tuistManifest = tuist }
        // One line per cause, as `release version` and the run's bump say them (base configurations under Pods/, which
        // `pod install` writes, are one line).
        result.notes += versions.warnings()

        // Apps: application targets nothing embeds, per platform, with their values in the archive configuration
        // (decided once the scheme is known; the version engine's default configuration until then).
        func app(_ target: String, configuration: String?) -> App? {
            let rows = versions.tracked.filter { $0.entry.target == target }
            guard let first = rows.first else { return nil }
            let row = rows.first { $0.entry.configuration == configuration } ?? rows.first { $0.entry.configuration == report.primaryConfiguration } ?? first
            let platform = row.sdk.flatMap(ApplePlatform.init(sdk:)) ?? (row.entry.productType?.contains("watchapp") == true ? .watchOS : .iOS)
            return App(
                target: target, platform: platform, bundleIdentifier: row.entry.bundleIdentifier, team: row.developmentTeam,
                version: row.entry.version, build: row.entry.build, versionDefinedAt: row.entry.versionDefinedAt?.description)
        }
        var targets: [String] = []
        for row in versions.tracked
        where row.entry.productType?.hasPrefix("com.apple.product-type.application") == true && row.entry.host == nil && !targets.contains(row.entry.target) {
            targets.append(row.entry.target)
        }
        result.apps = targets.compactMap { app($0, configuration: nil) }
        // iOS first, then the version engine's primary app, then the project's order.
        result.apps = result.apps.enumerated().sorted { lhs, rhs in
            if lhs.element.platform != rhs.element.platform { return lhs.element.platform < rhs.element.platform }
            let lhsPrimary = lhs.element.target == report.primaryTarget, rhsPrimary = rhs.element.target == report.primaryTarget
            if lhsPrimary != rhsPrimary { return lhsPrimary }
            return lhs.offset < rhs.offset
        }.map(\.element)
        guard !result.apps.isEmpty else {
            let names = Set(versions.tracked.map(\.entry.target)).sorted()
            throw Problem(
                description: "\(result.project ?? report.project) has no application target to release (targets: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
        }

        // The chosen app: --target, else --platform's first, else the first (iOS first).
        var candidates = result.apps
        if let platformName = answers.platform {
            guard let platform = ApplePlatform(name: platformName) else {
                throw Problem(description: "--platform '\(Echo.text(platformName))' is not one of \(ApplePlatform.allCases.map(\.name).joined(separator: ", "))")
            }
            candidates = candidates.filter { $0.platform == platform }
            guard !candidates.isEmpty else {
                throw Problem(
                    description:
                        "no \(platform.name) app in \(result.project ?? ""): its apps are \(result.apps.map { "\($0.target) (\($0.platform.name))" }.joined(separator: ", "))"
                )
            }
        }
        if let target = answers.target {
            guard let chosen = candidates.first(where: { $0.target == target }) else {
                throw Problem(
                    description:
                        "--target '\(Echo.text(target))' is not an app target here; the apps are \(result.apps.map { "\($0.target) (\($0.platform.name))" }.joined(separator: ", "))"
                )
            }
            candidates = [chosen]
        }
        var chosen = candidates[0]
        if answers.target == nil, result.apps.count > 1 {
            result.reasons.append(
                "app \(chosen.target) (\(chosen.platform.name)) of \(result.apps.count) apps (\(result.apps.map(\.target).joined(separator: ", "))): \(answers.platform == nil ? "iOS first, then the project's main app" : "the first \(chosen.platform.name) app"); --target picks another"
            )
        }

        // The workspace: the named one; else one in the repository that references the app's project; else the one
        // CocoaPods makes beside a Podfile.
        let projectFolder = projectPath.map(FilePath.parent(of:)) ?? root
        if let podfile = [FilePath.absolute("Podfile", in: projectFolder), FilePath.absolute("Podfile", in: root)].first(where: { FileManager.default.fileExists(atPath: $0) }) {
            result.podfile = relative(podfile, to: root)
        }
        var workspace = namedWorkspace
        if workspace == nil, let projectPath {
            workspace = Self.workspaces(below: root).compactMap { try? XcodeWorkspace(contentsOf: $0) }.first { $0.projects.contains(projectPath) }
            if let workspace {
                result.reasons.append(
                    "workspace \(relative(workspace.path, to: root)): it holds \(relative(projectPath, to: root))\(result.podfile != nil ? " and the CocoaPods projects" : "")")
            }
        }
        if let workspace {
            result.workspace = relative(workspace.path, to: root)
        } else if let podfile = result.podfile, let projectPath {
            let name = ((projectPath as NSString).lastPathComponent as NSString).deletingPathExtension
            result.workspace = relative(FilePath.absolute(name + ".xcworkspace", in: FilePath.parent(of: FilePath.absolute(podfile, in: root))), to: root)
            result.reasons.append("workspace \(result.workspace!): 'pod install' (from \(podfile)) creates it")
            result.workspaceCreatedByPods = true
        }

        // Shared schemes: the project's, the workspace's, and those of the other projects the workspace holds.
        var containers = [projectPath].compactMap { $0 }
        if let workspace { containers = [workspace.path] + containers + workspace.projects.filter { !containers.contains($0) } }
        var seen = Set<String>()
        result.schemes = containers.flatMap(XcodeScheme.shared(in:)).filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
        let schemeAnswer = answers.scheme
        if let schemeAnswer {
            if let scheme = result.schemes.first(where: { $0.name == schemeAnswer }) {
                result.scheme = scheme.name
                result.configuration = scheme.archiveConfiguration
                if answers.target == nil, let built = scheme.archived.first(where: \.isApplication),
                    let matching = result.apps.first(where: { $0.target == built.blueprintName })
                {
                    chosen = matching
                }
            } else if result.schemes.isEmpty, result.apps.contains(where: { $0.target == schemeAnswer }) {
                result.scheme = schemeAnswer
                result.notes.append(Self.unsharedNote(schemeAnswer))
            } else {
                let listed =
                    result.schemes.isEmpty
                    ? "there are no shared schemes (xcshareddata/xcschemes); a project without any gets one per target: \(result.apps.map(\.target).joined(separator: ", "))"
                    : "the shared schemes are \(result.schemeNames.map { "'\($0)'" }.joined(separator: ", "))"
                throw Problem(
                    description:
                        "--scheme '\(Echo.text(schemeAnswer))' does not exist: \(listed)\(Suggestion.closest(to: schemeAnswer, in: result.schemeNames).map { " (did you mean '\($0)'?)" } ?? "")"
                )
            }
        } else {
            let productName = chosen.target
            let archiving = result.schemes.filter { scheme in
                !scheme.createdForAppExtension && scheme.archived.contains { $0.isApplication && $0.blueprintName == productName }
            }
            let ranked = archiving.sorted { lhs, rhs in
                func score(_ scheme: XcodeScheme) -> [Int] {
                    [
                        scheme.name == productName ? 0 : 1,
                        scheme.archiveConfiguration == "Release" ? 0 : 1,
                        scheme.launched?.blueprintName == productName ? 0 : 1,
                        scheme.archived.count,
                    ]
                }
                let (l, r) = (score(lhs), score(rhs))
                return l != r ? l.lexicographicallyPrecedes(r) : lhs.name < rhs.name
            }
            let gym = Self.gym(in: root)
            result.gym = gym
            if let named = gym["scheme"], let scheme = result.schemes.first(where: { $0.name == named }) {
                result.scheme = scheme.name
                result.configuration = scheme.archiveConfiguration
                result.reasons.append("scheme '\(scheme.name)': fastlane's \(gym["source"] ?? "Gymfile") builds it (archives in \(scheme.archiveConfiguration))")
                if answers.target == nil, let built = scheme.archived.first(where: \.isApplication),
                    let matching = result.apps.first(where: { $0.target == built.blueprintName })
                {
                    chosen = matching
                }
            } else if let best = ranked.first {
                result.scheme = best.name
                result.configuration = best.archiveConfiguration
                let others =
                    ranked.count > 1
                    ? "; \(ranked.count - 1) \(ranked.count == 2 ? "other archives" : "others archive") it too (\(ranked.dropFirst().prefix(4).map(\.name).joined(separator: ", "))\(ranked.count > 5 ? ", …" : ""))"
                    : ""
                result.reasons.append("scheme '\(best.name)': it archives \(productName).app in \(best.archiveConfiguration)\(others)")
            } else {
                result.scheme = chosen.target
                result.notes.append(
                    result.schemes.isEmpty
                        ? Self.unsharedNote(chosen.target)
                        : "no shared scheme archives \(chosen.target).app: using '\(chosen.target)', which exists on a CI machine only if you share it (Xcode: Product › Scheme › Manage Schemes…, tick Shared, commit xcshareddata)"
                )
            }
        }
        if answers.scheme == nil, let configuration = result.gym["configuration"], configuration != result.configuration,
            versions.tracked.contains(where: { $0.entry.target == chosen.target && $0.entry.configuration == configuration })
        {
            result.reasons.append("configuration \(configuration): fastlane's \(result.gym["source"] ?? "Gymfile") archives in it")
            result.configuration = configuration
        }
        chosen = app(chosen.target, configuration: result.configuration) ?? chosen
        if let team = answers.team {
            guard isTeamID(team) else {
                throw Problem(description: "--team '\(Echo.text(team))' is not an Apple team ID (10 capital letters and digits, such as ABCDE12345)")
            }
            chosen.team = team
        }
        result.app = chosen

        result.usesSwiftPackages = containers.contains { container in
            let name = container.hasSuffix(".xcworkspace") ? "xcshareddata/swiftpm/Package.resolved" : "project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
            return FileManager.default.fileExists(atPath: (container as NSString).appendingPathComponent(name))
        }
        result.fastlane = Self.fastlane(in: root)
        if let fastlane = result.fastlane {
            var used: [String] = []
            if chosen.bundleIdentifier == nil, fastlane.appIdentifier != nil { used.append("app identifier \(fastlane.appIdentifier!)") }
            if chosen.team == nil, let team = fastlane.teamID, isTeamID(team) { used.append("team \(team)") }
            if let id = fastlane.appIdentifier, let bundle = chosen.bundleIdentifier, id != bundle {
                result.notes.append("fastlane's Appfile names \(id), the project builds \(bundle) in \(result.configuration): the pipeline uses the project's")
            }
            if !used.isEmpty { result.reasons.append("from fastlane's Appfile: \(used.joined(separator: ", "))") }
            if let type = fastlane.matchType {
                result.notes.append(
                    "fastlane match (type \(type)) keeps your certificates in a git repository: with --signing files, set CERTIFICATE_P12 and the profiles from the files match decrypts (fastlane match export), or use --signing api-key and let Xcode manage them"
                )
            }
        }
        if result.team == nil {
            result.notes.append("no team found (DEVELOPMENT_TEAM): set the pipeline's 'team' variable to your Apple team ID (developer.apple.com › Membership details)")
        }
        if let text = try? String(contentsOfFile: root + "/.xcode-version", encoding: .utf8) {
            let version = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !version.isEmpty, version.count <= 32, version.allSatisfy({ $0.isNumber || $0 == "." || $0.isLetter || $0 == "-" }) {
                result.xcodeVersion = version
                result.xcodeVersionSource = ".xcode-version"
            }
        }
        if result.xcodeVersion == nil, let (version, source) = Self.ciXcodeVersion(root: root) {
            result.xcodeVersion = version
            result.xcodeVersionSource = source
        }
        if let version = result.xcodeVersion, let source = result.xcodeVersionSource {
            result.notes.append(
                "Xcode \(version) is pinned by \(source): the Xcode steps run it (xcode_version: an installed Xcode \(version) through DEVELOPER_DIR, else their preflight names those installed)"
            )
        }
        result.githubRepository = githubRepository(gitConfig: GitDirectory.of(root).map { $0 + "/config" } ?? (root + "/.git/config"))
        Self.inspectTools(&result, root: root)
        Self.inspectSigning(&result, versions: versions, root: root)
        return result
    }

    /// The Xcode the project's CI selects, when it has no `.xcode-version`: `xcode-select -s` or `DEVELOPER_DIR` naming
    /// `/Applications/Xcode_X.Y.app` (as hosted runners install them), `setup-xcode`'s `xcode-version`, CircleCI's
    /// `xcode:`, in GitHub workflows, Xcode Cloud's `ci_scripts`, GitLab, Buildkite, CircleCI, Bitrise and Codemagic
    /// files. The version named most often wins (the newest of a tie), with where it is first named; versions computed
    /// at run time (`$(<.xcode-version)`) are not read.
    static func ciXcodeVersion(root: String) -> (version: String, source: String)? {
        var files: [String] = []
        for folder in [".github/workflows", "ci_scripts", ".buildkite"] {
            files += (LocalFiles().names(in: root + "/" + folder) ?? []).filter { [".yml", ".yaml", ".sh"].contains(where: $0.hasSuffix) }.map { folder + "/" + $0 }
        }
        files += [".gitlab-ci.yml", ".circleci/config.yml", "bitrise.yml", "codemagic.yaml"].filter { LocalFiles().kind(root + "/" + $0) == .file }
        var counts: [String: Int] = [:]
        var firstSource: [String: String] = [:]
        // A CI set-up is a few files of a few KiB each: anything far beyond is not one.
        for file in files.prefix(64) {
            guard let size = LocalFiles().size(root + "/" + file), size <= 1 << 20,
                let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8)
            else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let found =
                    line.firstMatch(of: /\/Applications\/Xcode[_-]?(\d+(?:\.\d+){0,2})\.app/)?.output.1
                    ?? line.firstMatch(of: /\bxcode(?:-version)?\s*:\s*['"]?(\d+(?:\.\d+){0,2})['"]?\s*$/)?.output.1
                guard let found else { continue }
                var parts = found.split(separator: ".").map(String.init)
                while parts.count > 2, parts.last == "0" { parts.removeLast() }
                let version = parts.joined(separator: ".")
                counts[version, default: 0] += 1
                if firstSource[version] == nil { firstSource[version] = "\(file):\(index + 1)" }
            }
        }
        let newest = { (a: String, b: String) in a.split(separator: ".").map { Int($0) ?? 0 }.lexicographicallyPrecedes(b.split(separator: ".").map { Int($0) ?? 0 }) }
        guard let best = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : newest($0.key, $1.key) })?.key, let source = firstSource[best]
        else { return nil }
        return (best, source)
    }

    /// The Gemfile and the tools it pins, the Podfile's bundler guard, and the project XcodeGen writes when only the
    /// spec is in the repository.
    static func inspectTools(_ result: inout RepositoryInspection, root: String) {
        if let spec = result.xcodegenSpec, result.project == spec {
            let name = (try? XcodeGenSpec(contentsOf: FilePath.absolute(spec, in: root)))?.name ?? "Project"
            let folder = FilePath.parent(of: spec)
            result.generatedProject = folder == "." || folder.isEmpty ? name + ".xcodeproj" : folder + "/" + name + ".xcodeproj"
            result.reasons.append(
                "project \(result.generatedProject!): the repository holds only the XcodeGen spec \(spec), so the pipeline runs 'xcodegen generate' before the archive and builds what it writes"
            )
        }
        let podfileFolder = result.podfile.map(FilePath.parent(of:)) ?? "."
        let gemfile = ["Gemfile", podfileFolder == "." ? nil : podfileFolder + "/Gemfile"].compactMap { $0 }
            .first { FileManager.default.fileExists(atPath: FilePath.absolute($0, in: root)) }
        var guardLine: String?
        if let podfile = result.podfile, let text = try? String(contentsOfFile: FilePath.absolute(podfile, in: root), encoding: .utf8) {
            // The guard `project.generate` reads: the starter and the step agree on `bundle exec`.
            guardLine = ProjectGenerator.bundlerGuardLine(podfile: text).map { "\(podfile):\($0)" }
        }
        guard let gemfile else {
            if let guardLine {
                result.notes.append("\(guardLine) stops CocoaPods outside 'bundle exec', but there is no Gemfile: add one that pins cocoapods")
            }
            return
        }
        result.gemfile = gemfile
        let text = (try? String(contentsOfFile: FilePath.absolute(gemfile, in: root), encoding: .utf8)) ?? ""
        for tool in ["cocoapods", "xcodegen", "fastlane"] {
            let pinned = ProjectGenerator.gemfile(text, pins: tool)
            if pinned || (tool == "cocoapods" && guardLine != nil) { result.bundledTools.append(tool) }
        }
        let run = result.bundledTools.filter { ($0 == "cocoapods" && result.podfile != nil) || ($0 == "xcodegen" && result.xcodegenSpec != nil) }
        if !run.isEmpty {
            result.reasons.append(
                "bundle install, then bundle exec \(run.map { $0 == "cocoapods" ? "pod" : $0 }.joined(separator: " and ")): \(gemfile) pins \(run.joined(separator: ", "))\(guardLine.map { " and \($0) refuses to run outside bundler" } ?? "")"
            )
        }
    }

    /// The archive configuration's signing of the app and what it embeds, and the signing to propose for it.
    static func inspectSigning(_ result: inout RepositoryInspection, versions: ProjectVersions, root: String) {
        guard let app = result.app else { return }
        let rows = versions.tracked.filter { $0.entry.configuration == result.configuration }
        // What the app embeds, as signing.sync's `bundle_id` finds it: every signed target whose id starts with the
        // app's and that no longer app id of the project claims (a watch app's extension names the watch app as host).
        if let appID = app.bundleIdentifier, !appID.isEmpty {
            let signed = rows.map(\.entry).filter { entry in
                let type = entry.productType ?? ""
                return type.hasPrefix("com.apple.product-type.application") || type.contains("extension") || type.contains("watchapp")
            }
            var seen: Set<String> = []
            let found = signed.compactMap(\.bundleIdentifier).filter { !$0.isEmpty && !$0.contains("$") && seen.insert($0).inserted }
            let apps = signed.filter { $0.productType == "com.apple.product-type.application" && $0.host == nil }.compactMap(\.bundleIdentifier)
            result.embeddedBundleIdentifiers = SigningSyncStep.bundleIDs(of: appID, among: found, apps: apps).filter { $0 != appID }
        }
        let ordered = rows.filter { $0.entry.target == app.target } + rows.filter { $0.entry.host == app.target }
        let targets = ordered.compactMap { row in row.signing.map { Signing.Target(name: row.entry.target, settings: $0) } }
        guard !targets.isEmpty else { return }
        let signing = Signing(targets: targets)
        result.signing = signing
        let manual = signing.manual
        guard !manual.isEmpty else { return }
        let definedAt = targets.first { $0.settings.isManual }?.settings.styleDefinedAt.map { relative(String($0), to: root) }
        var reason =
            "\(result.configuration) signs manually (CODE_SIGN_STYLE = Manual for \(manual.count == targets.count ? "the app and all it embeds" : manual.joined(separator: ", "))\(definedAt.map { ", from \($0)" } ?? "")): the pipeline installs a certificate and the profiles it names (or --signing sync makes them through the API; --signing api-key overrides the project's signing to automatic)"
        if let match = signing.matchSpecifier {
            reason +=
                "; its profiles come from fastlane match (PROVISIONING_PROFILE_SPECIFIER = '\(match)'): give the pipeline the certificate and profiles match keeps in its repository"
        }
        result.proposedSigning = Proposal(choice: "files", reason: reason)
    }

    static func unsharedNote(_ scheme: String) -> String {
        "the project shares no scheme: xcodebuild makes one per target (so '\(scheme)' works on a fresh clone), but share it to be sure CI builds what you build (Xcode: Product › Scheme › Manage Schemes…, tick Shared, commit xcshareddata)"
    }

    /// `.xcworkspace` folders in the repository (two levels down), outside projects and dependency folders.
    static func workspaces(below root: String) -> [String] {
        var found: [String] = []
        var folders = [root]
        for _ in 0..<3 {
            var next: [String] = []
            for folder in folders {
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
                where !name.hasPrefix(".") && !XcodeProject.skippedFolders.contains(name) {
                    let path = folder + "/" + name
                    if name.hasSuffix(".xcworkspace") { found.append(path) } else if !name.contains("."), FileSystemSupport.isDirectory(path) { next.append(path) }
                }
            }
            folders = next
        }
        return found
    }

    /// `fastlane/Appfile` and `fastlane/Matchfile` values written as literals (`app_identifier "x"`,
    /// `team_id("X")`, `type("appstore")`); values read from the environment or placeholders are left out.
    static func fastlane(in root: String) -> Fastlane? {
        guard let folder = ["fastlane", "Fastlane", ".fastlane"].map({ root + "/" + $0 }).first(where: FileSystemSupport.isDirectory) else { return nil }
        func value(_ key: String, in file: String) -> String? {
            guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8), text.utf8.count < 1 << 20 else { return nil }
            for raw in text.split(whereSeparator: \.isNewline) {
                var line = Substring(raw.trimmingCharacters(in: .whitespaces))
                guard line.hasPrefix(key) else { continue }
                line = line.dropFirst(key.count).drop { $0 == " " || $0 == "(" || $0 == "[" }
                guard let quote = line.first, quote == "\"" || quote == "'" else { continue }
                let rest = line.dropFirst()
                guard let end = rest.firstIndex(of: quote) else { continue }
                let found = String(rest[..<end])
                if found.isEmpty || found.contains("[[") || found.contains("#{") || found.count > 200 { continue }
                return found
            }
            return nil
        }
        let fastlane = Fastlane(
            appIdentifier: value("app_identifier", in: "Appfile") ?? value("app_identifier", in: "Matchfile"),
            teamID: value("team_id", in: "Appfile") ?? value("team_id", in: "Matchfile"),
            matchType: value("type", in: "Matchfile"))
        return fastlane == Fastlane() ? nil : fastlane
    }

    /// fastlane's answers for the build, written as literals: `fastlane/Gymfile` (`scheme("X")`, `configuration "X"`,
    /// `export_method "X"`), else the `gym`/`build_app` call of `fastlane/Fastfile` that exports for the App Store (else
    /// the first); `source` names the file.
    static func gym(in root: String) -> [String: String] {
        guard let folder = ["fastlane", "Fastlane", ".fastlane"].map({ root + "/" + $0 }).first(where: FileSystemSupport.isDirectory) else { return [:] }
        let keys = ["scheme", "configuration", "export_method"]
        func literal(after text: Substring) -> String? {
            let rest = text.drop { $0 == " " || $0 == "(" || $0 == ":" }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            let body = rest.dropFirst()
            guard let end = body.firstIndex(of: quote) else { return nil }
            let value = String(body[..<end])
            return value.isEmpty || value.contains("#{") || value.count > 200 ? nil : value
        }
        if let text = try? String(contentsOfFile: folder + "/Gymfile", encoding: .utf8), text.utf8.count < 1 << 20 {
            var found: [String: String] = [:]
            for raw in text.split(whereSeparator: \.isNewline) {
                let line = Substring(raw.trimmingCharacters(in: .whitespaces))
                for key in keys where found[key] == nil && line.hasPrefix(key) {
                    if let value = literal(after: line.dropFirst(key.count)) { found[key] = value }
                }
            }
            if !found.isEmpty {
                found["source"] = "Gymfile"
                return found
            }
        }
        guard let text = try? String(contentsOfFile: folder + "/Fastfile", encoding: .utf8), text.utf8.count < 1 << 20 else { return [:] }
        var calls: [[String: String]] = []
        var current: [String: String]?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = Substring(raw.trimmingCharacters(in: .whitespaces))
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("build_app(") || line.hasPrefix("gym(") || line.hasPrefix("build_ios_app(") {
                if let current { calls.append(current) }
                current = [:]
            }
            guard current != nil else { continue }
            for key in keys where line.hasPrefix(key + ":") || line.contains("(" + key + ":") {
                let start = line.range(of: key + ":")!.upperBound
                if let value = literal(after: line[start...]) { current?[key] = value }
            }
            if line.hasSuffix(")") || line == ")" {
                if let done = current { calls.append(done) }
                current = nil
            }
        }
        if let current { calls.append(current) }
        let appStore = calls.first { ["app-store", "app-store-connect"].contains($0["export_method"] ?? "") && $0["scheme"] != nil }
        guard var chosen = appStore ?? calls.first(where: { $0["scheme"] != nil }) else { return [:] }
        chosen["source"] = "Fastfile"
        return chosen
    }

    /// `owner/name` from the first GitHub remote in a git config (`origin` preferred), for https and ssh URLs.
    static func githubRepository(gitConfig path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var remotes: [(name: String, url: String)] = []
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.hasPrefix("[remote \"") ? String(line.dropFirst(9).prefix { $0 != "\"" }) : nil
            } else if let remote = current, line.hasPrefix("url"), let equals = line.firstIndex(of: "=") {
                remotes.append((remote, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        let ordered = remotes.filter { $0.name == "origin" } + remotes.filter { $0.name != "origin" }
        return ordered.lazy.compactMap { GitHubRemote.repository(fromURL: $0.url) }.first
    }

    /// Whether `text` is an Apple team ID: 10 capital letters and digits.
    package static func isTeamID(_ text: String) -> Bool {
        text.count == 10 && text.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
    }

    /// Whether `text` is a GitHub `owner/name`.
    package static func isRepositoryName(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let owner = parts.first, let name = parts.last, !owner.isEmpty, !name.isEmpty, owner.count <= 39, name.count <= 100 else { return false }
        return owner.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } && name != "." && name != ".."
    }

    static func relative(_ path: String, to directory: String) -> String {
        guard path.hasPrefix("/"), let inside = FilePath.relative(path, to: FilePath.absolute(directory)), inside != "." else { return path }
        return inside
    }
}
