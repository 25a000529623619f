import Foundation
import ReleaseSupport

/// The `Pipelines/release.json` that `release init` writes: a pipeline that ships, made only of first-class steps and
/// filled in from a ``RepositoryInspection`` and the answers to its questions.
///
/// The release model: a person cuts `release/X.Y.Z` with `release bump`; on that branch every commit that has no build
/// gets the next build number (above the project's, App Store Connect's and the tags') and the same commit run again
/// is the same build, so the marketing version never moves there; other branches make testers' builds.
///
/// A clean tree → the build-number bump (kept when the commit carries it) → its commit → project generation (XcodeGen,
/// Tuist, CocoaPods) → signing → `xcode.archive` for the app's platform, skipped with everything built from it when
/// App Store Connect already has this build (`skip_if`) → `xcode.export` with generated ExportOptions → `gate.ipa` and
/// the dSYM check and package → notes → on the `release` profile (branches `release/**`) an App Store export uploaded
/// to App Store Connect and given to a TestFlight group, tagged; on `adhoc` (every other branch) a release-testing
/// export for testers only → push → a GitHub Release when the remote is on GitHub → cleanup.
/// Steps that need Xcode say `"when": {"os": "macos"}`, so the file validates and dry-runs anywhere, and `runs_on` the
/// macOS runner; the pipeline's `runs_on` is Linux, so an export puts only signing, project generation, archive and
/// export on a Mac (a macOS minute costs ten Linux ones): the gate, bump, commit and push in a Linux job before it, the
/// checks, dSYMs, upload, TestFlight, tag and GitHub release in one after it. The bump's commit is pushed before the
/// archive, so every build App Store Connect gets is of a commit on the branch.
package struct StarterPipeline: Sendable, Equatable {
    /// How the archive and export are signed.
    package enum Signing: String, Sendable, Equatable, CaseIterable {
        /// Xcode manages certificates and profiles itself, authorised by the App Store Connect API key
        /// (`-allowProvisioningUpdates -authenticationKey…`): no certificate files to keep.
        case apiKey = "api-key"
        /// A distribution certificate (.p12) and provisioning profiles kept as secrets, installed for the run.
        case files
        /// `signing.sync`: the certificate, bundle ids and profiles found (or made and renewed) through the App Store
        /// Connect API from the certificate's private key, installed for the run.
        case sync

        /// What `init` says about the choice.
        package var summary: String {
            switch self {
            case .apiKey: "Xcode-managed signing with the App Store Connect API key (no certificate files to keep)"
            case .files: "a certificate (.p12) and provisioning profiles from secrets"
            case .sync: "a certificate and profiles kept up to date through the App Store Connect API (signing.sync; only the certificate's private key to keep)"
            }
        }
    }

    /// How the project is made before it is built.
    package enum Generation: Sendable, Equatable {
        case xcodegen(spec: String)
        case tuist
        case cocoapods(podfile: String)
    }

    /// The `.xcodeproj` (or XcodeGen spec) the version lives in.
    package var project: String
    /// The `.xcodeproj` XcodeGen writes, when the repository holds only the spec: what the Xcode steps build.
    package var generatedProject: String?
    /// Whether `pod install` makes the workspace (it is not in the repository): the pods step says it creates it.
    package var podsCreateWorkspace = false
    /// The Gemfile, when the tools below run through Bundler.
    package var gemfile: String?
    /// Tools the Gemfile pins (`cocoapods`, `xcodegen`): run as `bundle exec`, after one `bundle install`.
    package var bundledTools: [String] = []
    /// Whether the project's signing (a manual style, a profile specifier or a distribution identity in the archive
    /// configuration) conflicts with Xcode-managed signing: with the API key, the Xcode steps then override
    /// `CODE_SIGN_STYLE`, `CODE_SIGN_IDENTITY` and `PROVISIONING_PROFILE_SPECIFIER` together.
    package var projectSigningConflicts = false
    /// Whether the app and all it embeds sign automatically in the archive configuration (no manual style): with
    /// `files`, Xcode's automatic signing would look for development profiles the run does not install and, without
    /// `-allowProvisioningUpdates`, refuse to make them, so the archive signs automatically with the API key and the
    /// export re-signs with the installed distribution certificate and profiles (see ``archiveSignsWithKey``).
    package var projectSignsAutomatically = false
    /// The bundle ids of what the app embeds with a profile of its own (extensions, a watch app): with `files`, each
    /// gets its own profile secrets.
    package var embeddedBundleIdentifiers: [String] = []
    /// `-workspace` for xcodebuild when there is one; else `-project`.
    package var workspace: String?
    package var scheme: String
    /// The archive configuration.
    package var configuration: String
    /// The app target: file names (`build/NAME.xcarchive`).
    package var appName: String
    package var platform: ApplePlatform
    package var bundleIdentifier: String?
    /// The Apple team ID; a placeholder the pipeline names when unknown.
    package var team: String?
    package var generation: [Generation]
    package var signing: Signing
    /// The TestFlight group the release build goes to.
    package var testflightGroup: String
    /// `owner/name`; nil leaves the GitHub release out.
    package var githubRepository: String?
    /// The pinned Xcode (`.xcode-version`), said in the description.
    package var xcodeVersion: String?
    /// Where ``xcodeVersion`` is pinned: `.xcode-version`, or the CI file that selects it.
    package var xcodeVersionSource = ".xcode-version"
    /// The macOS runner label for exported CI workflows.
    package var runner: String
    /// Where `$schema` points, relative to the pipeline file: the schema lives beside `Pipelines/`, not in it,
    /// since every `Pipelines/*.json` is a pipeline to `release validate`.
    package var schemaPath: String

    package init(
        project: String, workspace: String? = nil, scheme: String, configuration: String = "Release", appName: String,
        platform: ApplePlatform = .iOS, bundleIdentifier: String? = nil, team: String? = nil, generation: [Generation] = [],
        signing: Signing = .apiKey, testflightGroup: String = StarterPipeline.defaultTestFlightGroup,
        githubRepository: String? = nil, xcodeVersion: String? = nil, runner: String = "macos-15",
        schemaPath: String = "../release.schema.json"
    ) {
        self.project = project
        self.workspace = workspace
        self.scheme = scheme
        self.configuration = configuration
        self.appName = appName
        self.platform = platform
        self.bundleIdentifier = bundleIdentifier
        self.team = team
        self.generation = generation
        self.signing = signing
        self.testflightGroup = testflightGroup
        self.githubRepository = githubRepository
        self.xcodeVersion = xcodeVersion
        self.runner = runner
        self.schemaPath = schemaPath
    }

    /// The runner of every step that does not need Xcode: the pipeline's `runs_on`.
    package static let linuxRunner = "ubuntu-latest"

    /// The TestFlight group a starter gives builds to unless told another.
    package static let defaultTestFlightGroup = "Internal Testers"

    /// Defaults from what the repository holds.
    package init(_ inspection: RepositoryInspection, signing: Signing = .apiKey) {
        let project = inspection.project ?? "."
        let app = inspection.appTarget ?? ((project as NSString).lastPathComponent as NSString).deletingPathExtension
        var generation: [Generation] = []
        if let spec = inspection.xcodegenSpec { generation.append(.xcodegen(spec: spec)) }
        if inspection.tuistManifest != nil { generation.append(.tuist) }
        if let podfile = inspection.podfile { generation.append(.cocoapods(podfile: podfile)) }
        self.init(
            project: project, workspace: inspection.workspace, scheme: inspection.scheme ?? app, configuration: inspection.configuration,
            appName: app, platform: inspection.app?.platform ?? .iOS, bundleIdentifier: inspection.bundleIdentifier,
            team: inspection.team, generation: generation, signing: signing, githubRepository: inspection.githubRepository,
            xcodeVersion: inspection.xcodeVersion)
        generatedProject = inspection.generatedProject
        if let xcode = inspection.xcodeVersion { runner = Self.runner(forXcode: xcode) }
        if let source = inspection.xcodeVersionSource { xcodeVersionSource = source }
        podsCreateWorkspace = inspection.workspaceCreatedByPods && inspection.workspace != nil
        gemfile = inspection.gemfile
        bundledTools = inspection.bundledTools
        projectSigningConflicts = inspection.signing?.conflictsWithAutomatic == true
        projectSignsAutomatically = inspection.signing?.manual.isEmpty == true
        embeddedBundleIdentifiers = inspection.embeddedBundleIdentifiers
    }

    /// With `files`, the secret holding each bundle id's profile of one type (`APPSTORE_PROFILE` or `ADHOC_PROFILE`):
    /// the app's is the base name, each embedded target's the base name and its id after the app's, in capitals
    /// (`com.example.app.ShareExtension` → `APPSTORE_PROFILE_SHAREEXTENSION`), so each has its own and a missing one is
    /// named.
    package func profileSecrets(_ base: String) -> [(secret: String, bundleID: String?)] {
        var list: [(String, String?)] = [(base, bundleIdentifier)]
        var used: Set<String> = [base]
        for bundleID in embeddedBundleIdentifiers {
            var part = bundleID
            if let app = bundleIdentifier, bundleID.hasPrefix(app + ".") { part = String(bundleID.dropFirst(app.count + 1)) }
            let suffix = String(part.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            var name = base + "_" + suffix
            var index = 2
            while !used.insert(name).inserted {
                name = base + "_" + suffix + "_\(index)"
                index += 1
            }
            list.append((name, bundleID))
        }
        return list
    }

    /// The GitHub-hosted macOS image that has Xcode `version` (`.xcode-version`): `macos-26` for Xcode 26 and later,
    /// `macos-15` for 16, `macos-14` for 15; `macos-15` when the version says nothing usable.
    package static func runner(forXcode version: String) -> String {
        guard let major = Int(version.prefix { $0.isNumber }) else { return "macos-15" }
        switch major {
        case 26...: return "macos-26"
        case 15: return "macos-14"
        default: return "macos-15"
        }
    }

    /// The build settings that make Xcode sign automatically whatever the project says: style, identity and
    /// specifier together (one alone is "conflicting provisioning settings").
    package static let automaticSigningOverrides: [(String, String)] = [
        ("CODE_SIGN_STYLE", "Automatic"), ("CODE_SIGN_IDENTITY", "Apple Development"), ("PROVISIONING_PROFILE_SPECIFIER", ""),
    ]

    /// The Name of the profiles `signing.sync` makes and installs for each bundle id, and the specifier the Xcode steps
    /// ask for: Xcode expands `$(PRODUCT_BUNDLE_IDENTIFIER)` per target, so the app and each extension find their own.
    package static let syncProfileName = "release ${channel} $(PRODUCT_BUNDLE_IDENTIFIER)"

    /// The build settings that make Xcode sign with what `signing.sync` installs, whatever the project says: manual
    /// style, the distribution identity and ``syncProfileName``, together. Automatic signing would want Xcode's own
    /// profiles (and `-allowProvisioningUpdates`), and a project's own specifier (`match AppStore …`) names profiles
    /// signing.sync neither makes nor installs: Xcode would refuse both.
    package static let syncSigningOverrides: [(String, String)] = [
        ("CODE_SIGN_STYLE", "Manual"), ("CODE_SIGN_IDENTITY", "Apple Distribution"), ("PROVISIONING_PROFILE_SPECIFIER", syncProfileName),
    ]

    /// Whether `xcode.archive` passes `-allowProvisioningUpdates` and the API key: always with `apiKey`; with `files`
    /// when the project signs automatically, since Xcode's automatic signing wants development profiles (and a
    /// development certificate) that only it makes, and without `-allowProvisioningUpdates` it stops with "Automatic
    /// signing is disabled and unable to generate a profile". The export then signs manually with the installed
    /// distribution profiles, so what ships is signed with the files the user keeps. A manual project (its own
    /// specifier names its profiles, e.g. fastlane match's) archives with those profiles as it is.
    package var archiveSignsWithKey: Bool { signing == .apiKey || (signing == .files && projectSignsAutomatically) }

    /// The secrets and environment variables a run of this pipeline reads, with where each comes from.
    package var secrets: [(name: String, purpose: String)] {
        var list: [(String, String)] = [
            ("APP_STORE_CONNECT_KEY_ID", "environment: the API key's ID (App Store Connect › Users and Access › Integrations › App Store Connect API)"),
            ("APP_STORE_CONNECT_ISSUER_ID", "environment: the issuer ID shown above the keys on that page"),
            ("APP_STORE_CONNECT_KEY", "secret: the key's .p8 file contents (downloadable once, when the key is made; role App Manager or Admin)"),
        ]
        if signing == .files {
            list += [
                ("CERTIFICATE_P12", "secret: the Apple Distribution certificate and key, exported from Keychain Access as .p12, in base64"),
                ("CERTIFICATE_PASSWORD", "secret: that .p12's password"),
            ]
            for (base, kind) in [("APPSTORE_PROFILE", "App Store"), ("ADHOC_PROFILE", "Ad Hoc")] {
                for (secret, bundleID) in profileSecrets(base) {
                    list.append(
                        (secret, "secret: the \(kind) provisioning profile" + (bundleID.map { " for \($0)" } ?? "") + " (developer.apple.com › Profiles), base64"))
                }
            }
        }
        if signing == .sync {
            list.append(
                (
                    "CERTIFICATE_KEY",
                    "secret: the distribution certificate's private key, PEM (RSA 2048: openssl genrsa -out signing.key 2048); signing.sync makes the certificate from it when the account has none"
                ))
        }
        if githubRepository != nil { list.append(("GITHUB_TOKEN", "secret: a token that can write releases (GitHub Actions provides one)")) }
        return list
    }

    /// The pipeline as JSON text, ending with a newline.
    package var text: String {
        typealias J = StarterJSON
        let key: [(String, J)] = [
            ("key_id", .s("${env.APP_STORE_CONNECT_KEY_ID}")), ("issuer_id", .s("${env.APP_STORE_CONNECT_ISSUER_ID}")),
            ("key", .s("${secrets.APP_STORE_CONNECT_KEY}")),
        ]
        let xcodeKey: [(String, J)] = [
            ("allow_provisioning_updates", .b(true)),
            ("authentication_key", .s("${secrets.APP_STORE_CONNECT_KEY}")),
            ("authentication_key_id", .s("${env.APP_STORE_CONNECT_KEY_ID}")),
            ("authentication_key_issuer_id", .s("${env.APP_STORE_CONNECT_ISSUER_ID}")),
        ]
        let version = "${steps.bump.outputs.version}", build = "${steps.bump.outputs.build}"
        // Only what needs Xcode runs on the Mac (its own `runs_on`); the pipeline's runner is Linux, a tenth of the price.
        let onMac: (String, J) = ("runs_on", .s(runner))
        let mac: (String, J) = ("when", .o([("os", .s("macos"))]))
        func step(_ id: String, _ uses: String, _ attributes: [(String, J)] = [], _ with: [(String, J)]) -> J {
            .o([("id", .s(id)), ("uses", .s(uses))] + attributes + (with.isEmpty ? [] : [("with", .o(with))]))
        }
        func needs(_ ids: String...) -> (String, J) { ("needs", .a(ids.map(J.s))) }
        func profile(_ name: String, and other: (String, J)? = nil) -> (String, J) {
            guard let other else { return ("when", .o([("profile", .s(name))])) }
            return ("when", .o([("all", .a([.o([("profile", .s(name))]), .o([other])]))]))
        }

        // The Xcode .xcode-version pins: the Xcode steps run it (DEVELOPER_DIR) or fail in preflight naming those installed.
        let pinnedXcode: [(String, J)] = xcodeVersion != nil ? [("xcode_version", .s("${xcode_version}"))] : []
        var steps: [J] = [
            step("check-git", "gate.git", [("gate", .b(true))], [("ignore", .a([.s("${build_dir}/")]))]),
            step(
                "bump", "version.bump", [needs("check-git")],
                [("project", .s(project)), ("app", .s("${app}")), ("part", .s("build")), ("build", .s("increment"))]
                    + (bundleIdentifier != nil ? [("bundle_id", .s("${bundle_id}"))] + key + [("platform", .s(platform.appStoreConnect))] : [])),
            step("commit", "git.commit", [], [("message", .s("Release \(version) (\(build))")), ("paths", .s("${steps.bump.outputs.files}"))]),
        ]
        var beforeArchive = ["commit"]
        // Tools the Gemfile pins run through Bundler (`project.generate`'s `bundler`), installed once.
        func bundled(_ gem: String) -> [(String, J)] { bundledTools.contains(gem) && gemfile != nil ? [("bundler", .b(true))] : [] }
        let needsBundle =
            gemfile != nil
            && generation.contains { generation in
                switch generation {
                case .xcodegen: bundledTools.contains("xcodegen")
                case .tuist: false
                case .cocoapods: bundledTools.contains("cocoapods")
                }
            }
        if needsBundle, let gemfile {
            let folder = FilePath.parent(of: gemfile)
            var with: [(String, J)] = [("run", .a(["bundle", "install"].map(J.s)))]
            if folder != "." { with.append(("cwd", .s(folder))) }
            steps.append(step("gems", "shell", [onMac, needs("commit"), mac], with))
            beforeArchive.append("gems")
        }
        for generation in generation {
            switch generation {
            case .xcodegen(let spec):
                // A project only generated: the step says it writes it, so the archive (which reads it) is checked
                // against the promise before XcodeGen runs.
                steps.append(
                    step(
                        "generate", "project.generate", [onMac, needs(beforeArchive.last!), mac],
                        [("tool", .s("xcodegen")), ("spec", .s(spec))] + bundled("xcodegen") + (generatedProject.map { [("output", J.s($0))] } ?? [])))
                beforeArchive.append("generate")
            case .tuist:
                steps.append(step("generate", "project.generate", [onMac, needs(beforeArchive.last!), mac], [("tool", .s("tuist"))]))
                beforeArchive.append("generate")
            case .cocoapods(let podfile):
                var with: [(String, J)] = [("tool", .s("cocoapods")), ("spec", .s(podfile))] + bundled("cocoapods")
                if podsCreateWorkspace, let workspace { with.append(("output", .s(workspace))) }
                steps.append(step("pods", "project.generate", [onMac, needs(beforeArchive.last!), mac], with))
                beforeArchive.append("pods")
            }
        }
        var buildSettings: [(String, J)] = [("DEVELOPMENT_TEAM", .s("${team}"))]
        if signing == .files {
            steps.append(
                step(
                    "keychain", "signing.keychain", [onMac, mac],
                    [("certificate", .s("${secrets.CERTIFICATE_P12}")), ("password", .s("${secrets.CERTIFICATE_PASSWORD}"))]))
            for (id, profileName, secret, type) in [("profiles", "release", "APPSTORE_PROFILE", "app-store"), ("adhoc-profiles", "adhoc", "ADHOC_PROFILE", "ad-hoc")] {
                steps.append(
                    step(
                        id, "signing.profile", [onMac, profile(profileName, and: ("os", .s("macos")))],
                        [("profiles", .a(profileSecrets(secret).map { .s("${secrets.\($0.secret)}") })), ("team_id", .s("${team}")), ("type", .s(type))]))
            }
            beforeArchive += ["keychain", "profiles", "adhoc-profiles"]
            if archiveSignsWithKey {
                // Automatic signing signs the archive with the development certificate Xcode fetches or makes through
                // the key, which is not in the run's keychain: codesign looks through the search list (the run's
                // keychain first). The export re-signs with the distribution certificate that keychain holds.
                buildSettings += (projectSigningConflicts ? Self.automaticSigningOverrides : [("CODE_SIGN_STYLE", "Automatic")]).map { ($0.0, J.s($0.1)) }
            } else {
                buildSettings.append(("OTHER_CODE_SIGN_FLAGS", .s("--keychain ${steps.keychain.outputs.path}")))
            }
        } else if signing == .sync {
            // One step for both profiles: the App Store type on release*, ad hoc elsewhere (the profiles' `channel`).
            steps.append(
                step(
                    "signing", "signing.sync", [onMac, mac],
                    [
                        ("type", .s("${channel}")), ("platform", .s(platform.signing)), ("project", .s(project)),
                    ] + (bundleIdentifier != nil ? [("bundle_id", .s("${bundle_id}"))] : []) + [
                        ("profile_name", .s(Self.syncProfileName)), ("certificate_key", .s("${secrets.CERTIFICATE_KEY}")), ("create", .b(true)),
                    ] + key))
            beforeArchive.append("signing")
            buildSettings.append(("OTHER_CODE_SIGN_FLAGS", .s("--keychain ${steps.signing.outputs.keychain}")))
            buildSettings += Self.syncSigningOverrides.map { ($0.0, J.s($0.1)) }
        } else if projectSigningConflicts {
            buildSettings += Self.automaticSigningOverrides.map { ($0.0, J.s($0.1)) }
        } else {
            buildSettings.append(("CODE_SIGN_STYLE", .s("Automatic")))
        }
        let container: (String, J) =
            workspace.map { ("workspace", .s(podsCreateWorkspace ? "${steps.pods.outputs.path}" : $0)) } ?? (
                "project", .s(generatedProject != nil ? "${steps.generate.outputs.path}" : project)
            )
        steps.append(
            step(
                "archive", "xcode.archive",
                [onMac, ("needs", .a(beforeArchive.map(J.s))), mac] + (bundleIdentifier != nil ? [("skip_if", .s("${steps.bump.outputs.shipped}"))] : []),
                [
                    container, ("scheme", .s("${scheme}")), ("configuration", .s("${configuration}")), ("destination", .s(platform.destination)),
                    ("archive_path", .s("${build_dir}/${app}.xcarchive")), ("derived_data_path", .s("${build_dir}/DerivedData")),
                    ("build_settings", .o(buildSettings)),
                ] + (archiveSignsWithKey ? xcodeKey : []) + pinnedXcode))
        var export: [(String, J)] = [
            ("archive", .s("${steps.archive.outputs.path}")), ("method", .s("${export_method}")),
            ("export_path", .s("${build_dir}/export")), ("team_id", .s("${team}")),
        ]
        if signing == .apiKey { export.append(("signing_style", .s("automatic"))) }
        steps.append(step("export", "xcode.export", [onMac, mac], export + (signing == .apiKey ? xcodeKey : []) + pinnedXcode))
        var ipaCheck: [(String, J)] = [
            ("ipa", .s("${steps.export.outputs.path}")), ("channel", .s("${channel}")),
            ("version", .s(version)), ("build", .s(build)),
        ]
        if bundleIdentifier != nil { ipaCheck.append(("bundle_id", .s("${bundle_id}"))) }
        steps += [
            step("check-ipa", "gate.ipa", [("gate", .b(true))], ipaCheck),
            step("check-dsyms", "gate.dsym", [("gate", .b(true))], [("archive", .s("${steps.archive.outputs.path}"))]),
            step(
                "dsyms", "dsym.package", [needs("check-dsyms")],
                [("archive", .s("${steps.archive.outputs.path}")), ("output", .s("${build_dir}/${app}-\(version)-\(build).dSYM.zip"))]),
            step("notes", "notes", [needs("commit")], [("tag_pattern", .s("v*"))]),
            step(
                "upload", "appstore.upload", [needs("check-ipa", "check-dsyms"), profile("release")],
                [("ipa", .s("${steps.export.outputs.path}"))] + (bundleIdentifier != nil ? [("bundle_id", .s("${bundle_id}"))] : [])
                    + [("wait", .s("processed")), ("existing", .s("keep"))] + key),
            step(
                "testflight", "testflight.distribute", [needs("upload"), profile("release")],
                // From the bump, not the upload: a build App Store Connect already has is not uploaded again, and its
                // TestFlight distribution still converges.
                (bundleIdentifier != nil
                    ? [("bundle_id", .s("${bundle_id}")), ("version", .s(version)), ("build", .s(build))]
                    : [
                        ("bundle_id", .s("${steps.upload.outputs.bundle_id}")), ("version", .s("${steps.upload.outputs.version}")),
                        ("build", .s("${steps.upload.outputs.build}")), ("build_id", .s("${steps.upload.outputs.build_id}")),
                    ]) + [
                        ("what_to_test", .s("${steps.notes.outputs.text}")), ("groups", .a([.s("${testflight_group}")])),
                        ("platform", .s(platform.appStoreConnect)),
                    ] + key),
            step(
                "tag", "git.tag", [needs("testflight"), profile("release")],
                [("name", .s("${tag}")), ("message", .s("Release \(version) (\(build))"))]),
            // The bump's commit is pushed before the Mac archives it: the build App Store Connect gets is always of a commit
            // on the branch, so running the branch again (a scheduled resume, a failed archive re-run) keeps that build.
            step("push", "git.push", [needs("commit")], [("refs", .a([.s("${steps.check-git.outputs.branch}")]))]),
            step("push-tag", "git.push", [needs("push", "tag"), profile("release")], [("refs", .a([.s("${tag}")]))]),
        ]
        if let githubRepository {
            steps += [
                step(
                    "publish", "github.release", [needs("push-tag"), profile("release")],
                    [
                        ("repo", .s(githubRepository)), ("token", .s("${secrets.GITHUB_TOKEN}")), ("tag", .s("${tag}")),
                        ("name", .s("${app} \(version) (\(build))")), ("body", .s("${steps.notes.outputs.markdown}")),
                        ("assets", .a([.s("${steps.dsyms.outputs.path}")])),
                    ]),
                step(
                    "publish-testers", "github.release", [needs("push"), profile("adhoc")],
                    [
                        ("repo", .s(githubRepository)), ("token", .s("${secrets.GITHUB_TOKEN}")),
                        ("tag", .s("testers/\(version)-\(build)")), ("target_commitish", .s("${steps.commit.outputs.sha}")),
                        ("name", .s("${app} \(version) (\(build)) for testers")), ("prerelease", .b(true)),
                        ("body", .s("${steps.notes.outputs.markdown}")),
                        ("assets", .a([.s("${steps.export.outputs.path}"), .s("${steps.dsyms.outputs.path}")])),
                    ]),
            ]
        }
        steps.append(step("cleanup", "shell", [("always", .b(true))], [("run", .a(["rm", "-rf", "${build_dir}/DerivedData"].map(J.s)))]))

        let about =
            "Written by 'release init' for \(appName)" + (bundleIdentifier.map { " (\($0))" } ?? "") + " on \(platform.name)"
            + ", signed with \(signing.summary)" + (xcodeVersion.map { "; built with Xcode \($0) (\(xcodeVersionSource)), on \(runner)" } ?? "")
            + ". On release/** branches (cut with 'release bump'): each commit an App Store build with the next build number uploaded to App Store Connect for TestFlight group '\(testflightGroup)', tagged v<version>-<build>"
            + (githubRepository != nil ? " and published as a GitHub Release" : "")
            + "; elsewhere: a release-testing (ad hoc) build for testers" + (githubRepository != nil ? " as a GitHub pre-release" : "")
            + ". Only signing, project generation, archive and export need Xcode: they run on \(runner) (runs_on), everything else on \(Self.linuxRunner), whose minutes cost a tenth"
            + ". Edit freely: 'release validate' checks it, 'release run --dry-run' shows what it would do, 'release run --rehearse' does it against local stand-ins."
        // Names read from the project are text, never references: a scheme named `Demo${env.TOKEN}` stays that name.
        func literal(_ text: String) -> J { .s(text.replacingOccurrences(of: "${", with: "$${")) }
        var variables: [(String, J)] = [
            ("app", literal(appName)), ("scheme", literal(scheme)), ("configuration", literal(configuration)),
        ]
        if let bundleIdentifier { variables.append(("bundle_id", literal(bundleIdentifier))) }
        if let xcodeVersion { variables.append(("xcode_version", literal(xcodeVersion))) }
        variables += [
            ("team", literal(team ?? "TEAMID0000")), ("testflight_group", literal(testflightGroup)), ("build_dir", .s("build")),
            ("tag", .s("v\(version)-\(build)")),
        ]
        let document: J = .o([
            ("$schema", .s(schemaPath)), ("version", .n(1)),
            ("name", .s(appName.lowercased().replacingOccurrences(of: " ", with: "-") + "-release")),
            ("description", .s(about)), ("runs_on", .s(Self.linuxRunner)),
            ("variables", .o(variables)),
            (
                "profiles",
                .o([
                    (
                        "release",
                        .o([
                            ("when", .o([("branch", .s("release/**"))])),
                            ("variables", .o([("export_method", .s("app-store-connect")), ("channel", .s("app-store"))])),
                        ])
                    ),
                    (
                        "adhoc",
                        .o([
                            ("default", .b(true)),
                            ("variables", .o([("export_method", .s("release-testing")), ("channel", .s("ad-hoc"))])),
                        ])
                    ),
                ])
            ),
            ("steps", .a(steps)),
        ])
        return document.rendered() + "\n"
    }
}

/// JSON with its keys in the order written, rendered the way people write pipelines: the document's members and
/// each step on its own line.
enum StarterJSON {
    case s(String)
    case b(Bool)
    case n(Int)
    case a([StarterJSON])
    case o([(String, StarterJSON)])

    /// One line.
    var inline: String {
        switch self {
        case .s(let text): "\"" + JSONEscape.string(text) + "\""
        case .b(let flag): flag ? "true" : "false"
        case .n(let number): String(number)
        case .a(let items): "[" + items.map(\.inline).joined(separator: ", ") + "]"
        case .o(let members): "{" + members.map { "\"\(JSONEscape.string($0.0))\": \($0.1.inline)" }.joined(separator: ", ") + "}"
        }
    }

    /// The document: top-level members one per line; the members of `variables` and `profiles`, and the steps, one per line.
    func rendered() -> String {
        guard case .o(let members) = self else { return inline }
        let lines = members.map { name, value -> String in
            let key = "  \"\(JSONEscape.string(name))\": "
            switch value {
            case .a(let items) where name == "steps":
                return key + "[\n" + items.map { "    " + $0.inline }.joined(separator: ",\n") + "\n  ]"
            case .o(let inner) where name == "variables" || name == "profiles":
                return key + "{\n" + inner.map { "    \"\(JSONEscape.string($0.0))\": \($0.1.inline)" }.joined(separator: ",\n") + "\n  }"
            default:
                return key + value.inline
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }
}
