import Foundation
import ReleaseApple
import ReleaseArtifacts
import ReleaseSupport

/// `xcode.export`: `xcodebuild -exportArchive` with an ExportOptions.plist written from typed options, what fastlane's
/// `gym` does for the export half.
///
/// `method` accepts Xcode's old and new names (`app-store` and `app-store-connect`, `ad-hoc` and `release-testing`,
/// `development` and `debugging`) and the plist gets the one the installed Xcode expects, from `xcodebuild
/// -version` (see ``ExportMethod/newNamesSince``). `provisioningProfiles` maps each bundle identifier in the archive
/// (the app and its extensions) to a profile: given as `provisioning_profiles`, or found among `profiles` (what
/// `signing.profile` installed, `${steps.profiles.outputs.paths}`, which is the default when neither is given and
/// signing is not automatic: see ``PipelineLoader/defaultExportProfiles(_:)``): a profile of the type the method signs with, an
/// exact application identifier preferred to a wildcard; two that fit equally are an error naming them. `manageAppVersionAndBuildNumber` is always false: the release decided them.
package struct XcodeExportStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "the .xcarchive to export")
        package var archive: String
        @StepOption(help: "how to export; old and new Xcode names are both accepted")
        package var method: ExportMethod
        @StepOption(.output, must: .notBeEmpty, help: "the folder the .ipa goes to (xcodebuild's -exportPath)")
        package var exportPath: String
        @StepOption(help: "teamID (default: the profiles' team)")
        package var teamID: String?
        @StepOption(help: "signingStyle (default: manual when profiles are known, else automatic)")
        package var signingStyle: SigningStyle?
        @StepOption(help: "bundle identifier → profile name or UUID, written as they are")
        package var provisioningProfiles: [String: String] = [:]
        @StepOption(
            help:
                "installed profiles to map the archive's bundle identifiers to, e.g. ${steps.profiles.outputs.paths} (default, without provisioning_profiles or automatic signing: the paths of the pipeline's signing.profile steps)"
        )
        package var profiles: PathListOption?
        @StepOption(help: "signingCertificate, e.g. 'Apple Distribution' or a SHA-1")
        package var signingCertificate: String?
        @StepOption(help: "uploadSymbols (App Store exports)")
        package var uploadSymbols: Bool = true
        @StepOption(help: "let xcodebuild update profiles (-allowProvisioningUpdates)")
        package var allowProvisioningUpdates: Bool = false
        @StepOptionGroup
        package var authentication: XcodeAuthenticationOptions
        @StepOption(.path, help: "where ExportOptions.plist is written (default: <export_path>/ExportOptions.plist)")
        package var optionsPlist: String?
        @StepOption(
            help:
                "the Xcode to run, as .xcode-version pins it (16.2, or 16 for any 16.x): the selected one when it is that version, else an installed one through DEVELOPER_DIR; preflight fails naming the installed ones when none is"
        )
        package var xcodeVersion: String?

        package init() {}
    }

    /// ExportOptions' `signingStyle`.
    package enum SigningStyle: String, OptionChoice, Equatable {
        case manual
        case automatic
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "xcode.export"
    package static let exportTraits = ExportTraits(runner: .macOS("Xcode"))
    /// One line for `release steps`.
    package static let summary = "xcodebuild -exportArchive with an ExportOptions.plist from typed options (old and new method names); outputs the .ipa"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the .ipa (also an artifact)"),
        .init("ipa", "path", "the .ipa (same as path)"),
        .init("options_plist", "path", "the ExportOptions.plist written"),
        .init(
            "app_store_info", "path",
            "AppStoreInfo.plist, which App Store exports ask Xcode for (generateAppStoreInformation) and appstore.upload attaches; empty for other methods"),
        .init("method", "string", "the method as written for the installed Xcode"),
    ]
    package static let example = """
        { "id": "export", "uses": "xcode.export", "when": {"os": "macos"},
          "with": { "archive": "${steps.archive.outputs.path}", "method": "app-store-connect", "export_path": "build/export",
                    "profiles": "${steps.profiles.outputs.paths}" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for empty paths.
    package init(options: Options) throws {
        try options.validate()
        if options.exportPath.hasSuffix(".ipa") {
            throw StepError.invalidOption("export_path", "'\(options.exportPath)' is a folder for xcodebuild, not the .ipa")
        }
        self.authentication = XcodeAuthentication(options.authentication)
        self.options = options
    }

    /// The API key for Xcode-managed signing, when given.
    let authentication: XcodeAuthentication?

    func plistPath(_ context: StepContext) -> String {
        options.optionsPlist.map(context.resolvePath) ?? context.resolvePath(options.exportPath) + "/ExportOptions.plist"
    }

    /// The .ipa `run` is expected to produce: named after the archive.
    func promisedIPA(_ context: StepContext) -> String {
        let name = ((context.resolvePath(options.archive) as NSString).lastPathComponent as NSString).deletingPathExtension
        return context.resolvePath(options.exportPath) + "/\(name).ipa"
    }

    /// Bundle identifiers of the archive's app and its extensions (`PlugIns/*.appex`, `Extensions/*.appex`).
    static func bundleIdentifiers(inArchive archive: String) -> [String] {
        let applications = archive + "/Products/Applications"
        var bundles: [String] = []
        for app in LocalFiles().names(in: applications) ?? [] where app.hasSuffix(".app") {
            bundles.append(applications + "/" + app)
            for folder in ["PlugIns", "Extensions"] {
                let path = applications + "/" + app + "/" + folder
                for appex in LocalFiles().names(in: path) ?? [] where appex.hasSuffix(".appex") {
                    bundles.append(path + "/" + appex)
                }
            }
        }
        return bundles.compactMap { bundle in
            guard let data = LocalFiles().contents(bundle + "/Info.plist"),
                let plist = PropertyListDepth.propertyList(from: data) as? [String: Any]
            else { return nil }
            return plist["CFBundleIdentifier"] as? String
        }
    }

    /// The profile type an export `method` signs with; nil when there is none to require (Developer ID).
    static func profileType(for method: ExportMethod) -> ProvisioningProfile.ProfileType? {
        switch method {
        case .appStore, .appStoreConnect: return .appStore
        case .adHoc, .releaseTesting: return .adHoc
        case .development, .debugging: return .development
        case .enterprise: return .enterprise
        case .developerID: return nil
        }
    }

    /// The profile for each bundle identifier among `profiles` of the type `method` signs with: an exact
    /// application identifier first, else the most specific wildcard.
    /// - Throws: ``StepError/invalidOption(_:_:)`` when two profiles fit a bundle identifier equally well, naming them.
    static func mapping(bundleIDs: [String], profiles: [ProvisioningProfile], method: ExportMethod) throws -> [String: String] {
        let type = profileType(for: method)
        var result: [String: String] = [:]
        for bundleID in bundleIDs {
            var candidates = profiles.filter { $0.matches(bundleID: bundleID) && (type == nil || $0.type == type) }
            var seen: Set<String> = []
            candidates.removeAll { !seen.insert($0.uuid).inserted }
            let exact = candidates.filter { !$0.isWildcard }
            let longest = candidates.map { $0.bundleIdentifierPattern?.count ?? 0 }.max()
            let best = exact.isEmpty ? candidates.filter { ($0.bundleIdentifierPattern?.count ?? 0) == longest } : exact
            if best.count > 1 {
                let names = best.map { "'\($0.name)' (\($0.uuid))" }.joined(separator: ", ")
                throw StepError.invalidOption(
                    "profiles",
                    "bundle identifier '\(bundleID)' is covered by \(best.count) \(type?.rawValue ?? "") profiles "
                        + "equally: \(names); choose one with 'provisioning_profiles'")
            }
            if let profile = best.first { result[bundleID] = profile.uuid }
        }
        return result
    }

    /// The ExportOptions for the archive at `archive`, or what it will be when the archive and profiles are promised.
    func exportOptions(_ context: StepContext) throws -> ExportOptions {
        var profiles: [ProvisioningProfile] = []
        for expansion in options.profiles?.expand(in: context) ?? [] where !expansion.isPromised {
            for file in expansion.files {
                do {
                    profiles.append(try ProvisioningProfile(contentsOf: file))
                } catch {
                    throw StepError.invalidOption("profiles", "'\(file)': \(error)")
                }
            }
        }
        let bundleIDs = Self.bundleIdentifiers(inArchive: context.resolvePath(options.archive))
        var mapping = try Self.mapping(
            bundleIDs: bundleIDs.filter { options.provisioningProfiles[$0] == nil }, profiles: profiles,
            method: options.method)
        mapping.merge(options.provisioningProfiles) { _, given in given }
        let style = options.signingStyle ?? (mapping.isEmpty && options.profiles == nil ? .automatic : .manual)
        let team = options.teamID ?? profiles.first.map(\.teamID).flatMap { $0.isEmpty ? nil : $0 }
        return ExportOptions(
            method: options.method, teamID: team, signingStyle: style.rawValue, provisioningProfiles: mapping,
            uploadSymbols: options.uploadSymbols, signingCertificate: options.signingCertificate)
    }

    func command(_ context: StepContext, authentication arguments: [String]? = nil) -> [String] {
        XcodebuildCommand.exportArchive(
            archivePath: context.resolvePath(options.archive), exportPath: context.resolvePath(options.exportPath),
            optionsPlist: plistPath(context), allowProvisioningUpdates: options.allowProvisioningUpdates || authentication != nil,
            authentication: arguments ?? authentication?.plannedArguments(in: context) ?? [])
    }

    /// Read-only checks: the archive exists (or is promised) and xcodebuild can be run.
    package func verify(in context: StepContext) async throws {
        try context.requireFile(options.archive, option: "archive")
        try context.requireCommand("xcodebuild", purpose: "xcode.export runs on macOS with Xcode")
        _ = try exportOptions(context)
        if let wanted = options.xcodeVersion { _ = try await XcodeSelection.environment(for: wanted, in: context) }
    }

    /// The plist and command `run` would write and run, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let exportOptions = try exportOptions(context)
        let profiles = exportOptions.provisioningProfiles.keys.sorted().map { "\($0) → \(exportOptions.provisioningProfiles[$0]!)" }
        let detail =
            "method \(options.method.rawValue) (named for the installed Xcode), signingStyle \(exportOptions.signingStyle)"
            + (profiles.isEmpty ? "" : ", provisioningProfiles: " + profiles.joined(separator: ", "))
        return StepPlan(
            effects: [
                .command(argv: XcodebuildCommand.version, directory: nil),
                .writeFile(path: plistPath(context), diff: nil, detail: detail),
                .command(argv: command(context), directory: nil),
            ],
            outputs: StepOutputs([
                "path": .path(promisedIPA(context)), "ipa": .path(promisedIPA(context)),
                "options_plist": .path(plistPath(context)), "method": .string(options.method.rawValue),
                "app_store_info": exportOptions.method.profileType == .appStore
                    ? .path(context.resolvePath(options.exportPath) + "/AppStoreInfo.plist") : .string(""),
            ]))
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        try context.requireFile(options.archive, option: "archive")
        var developer: [String: String] = [:]
        if let wanted = options.xcodeVersion { developer = try await XcodeSelection.environment(for: wanted, in: context) }
        let versionText = try await context.capture(XcodebuildCommand.version, environment: developer)
        guard let xcode = XcodeVersion(versionOutput: versionText) else {
            throw StepError.failed("cannot read the Xcode version from 'xcodebuild -version': '\(versionText)'")
        }
        let exportOptions = try exportOptions(context)
        let method = exportOptions.method.name(for: xcode)
        context.log("Xcode \(xcode) (\(xcode.build)): method '\(method)'" + (method == options.method.rawValue ? "" : " for '\(options.method.rawValue)'"))
        let plist = plistPath(context)
        try FileSystemSupport.createParent(of: plist)
        try AtomicFile.write(try exportOptions.propertyList(for: xcode), to: plist)
        let exportPath = context.resolvePath(options.exportPath)
        try context.files.createDirectory(exportPath)
        let arguments = command(context, authentication: try authentication?.install(in: context))
        let result = try await context.run(arguments, environment: developer)
        guard result.succeeded else {
            throw StepError.exitStatus(result.status, command: context.masker.commandLine(arguments))
        }
        let ipas = (context.files.names(in: exportPath) ?? []).filter { $0.hasSuffix(".ipa") }
        guard let name = ipas.first else { throw StepError.failed("xcodebuild -exportArchive wrote no .ipa in '\(exportPath)'") }
        let ipa = exportPath + "/" + name
        let info = exportPath + "/AppStoreInfo.plist"
        let hasInfo = context.files.exists(info)
        return StepOutputs(
            [
                "path": .path(ipa), "ipa": .path(ipa), "options_plist": .path(plist), "method": .string(method),
                "app_store_info": hasInfo ? .path(info) : .string(""),
            ],
            artifacts: [try await context.artifact(ipa)])
    }
}
