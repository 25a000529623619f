import Foundation
import ReleaseApple
import ReleaseArtifacts
import ReleaseSupport
import ReleaseVersioning

/// `signing.profile`: installs provisioning profiles where Xcode looks for them (both the folder Xcode 16 reads and
/// the one earlier versions read, see ``ProvisioningProfileLocations``), each as `<UUID>.mobileprovision`, what
/// fastlane's `match` and `install_provisioning_profile` do.
///
/// Each profile is read from its CMS envelope (``ProvisioningProfile``) before anything runs: preflight fails on an
/// expired profile, one of another team, one whose application identifier does not cover the bundle identifier
/// (given, or read from the Xcode project), or one of another type than asked for. Teardown removes only the files
/// this step created; a profile that was installed already is left as it was.
package struct SigningProfileStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(
            must: .notBeEmpty("must list at least one profile"), .haveNoEmptyItem(),
            help: "the .mobileprovision files: paths, or contents in base64 (${secrets.APPSTORE_PROFILE}); list outputs are flattened")
        package var profiles: PathListOption
        @StepOption(help: "each profile must be of this team (TeamIdentifier)")
        package var teamID: String?
        @StepOption(help: "each profile's application identifier must cover this bundle identifier")
        package var bundleID: String?
        @StepOption(.path, help: "an Xcode project (or its folder): each profile must cover one of its targets' bundle identifiers")
        package var project: String?
        @StepOption(help: "each profile must be of this type")
        package var type: ProfileTypeChoice?
        @StepOption(.path, help: "the home folder whose Library receives the profiles (default: $HOME)")
        package var home: String?

        package init() {}
    }

    /// A profile type as an option.
    package enum ProfileTypeChoice: String, OptionChoice, Equatable {
        case development
        case adHoc = "ad-hoc"
        case appStore = "app-store"
        case enterprise
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "signing.profile"
    package static let exportTraits = ExportTraits(runner: .macOS("signs into the Mac's keychain"))
    /// One line for `release steps`.
    package static let summary = "Install provisioning profiles where Xcode finds them, failing early on expired or mismatched ones; teardown removes them"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the first profile as installed (Xcode 16's folder)"),
        .init("paths", "list", "every profile as installed in Xcode 16's folder, for xcode.export's 'profiles'"),
        .init("uuid", "string", "the first profile's UUID"),
        .init("uuids", "list", "every profile's UUID"),
        .init("name", "string", "the first profile's Name"),
        .init("names", "list", "every profile's Name"),
        .init("team_id", "string", "the first profile's team"),
        .init("app_id", "string", "the first profile's application identifier"),
        .init("type", "string", "the first profile's type: development, ad-hoc, app-store or enterprise"),
        .init("expires", "string", "the first profile's ExpirationDate, ISO 8601 UTC"),
        .init("devices", "list", "the first profile's ProvisionedDevices"),
    ]
    package static let example = """
        { "id": "profiles", "uses": "signing.profile", "when": {"os": "macos"},
          "with": { "profiles": ["Signing/AppStore.mobileprovision", "${secrets.WIDGET_PROFILE}"],
                    "team_id": "ABCDE12345", "project": "Demo.xcodeproj", "type": "app-store" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty list or item.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    /// One profile as given: where it came from (for messages) and its bytes, or nil when promised by an upstream step.
    struct Source {
        var label: String
        var data: Data?
    }

    func sources(_ context: StepContext) throws -> [Source] {
        try options.profiles.items.enumerated().map { index, item in
            if let data = InlineContents.decode(item) { return Source(label: "profile \(index + 1) (base64)", data: data) }
            if case .promised = context.fileState(item) { return Source(label: "'\(context.resolvePath(item))'", data: nil) }
            let path = try context.requireFile(item, option: "profiles")
            guard let data = context.files.contents(path) else { throw StepError.failed("cannot read '\(path)'") }
            return Source(label: "'\(path)'", data: data)
        }
    }

    /// The profiles read and checked, with their bytes; promised ones are left out.
    func readProfiles(_ context: StepContext) throws -> [(profile: ProvisioningProfile, data: Data)] {
        var bundleIDs: [String] = []
        if let bundleID = options.bundleID { bundleIDs = [bundleID] }
        if let project = options.project {
            let path = try context.requireFile(project, option: "project")
            let report = try VersionReader.read(project: path, in: context.workingDirectory).report
            bundleIDs += report.entries.compactMap(\.bundleIdentifier).filter { !$0.isEmpty && !$0.contains("$") }
        }
        var problems: [String] = []
        var profiles: [(profile: ProvisioningProfile, data: Data)] = []
        for source in try sources(context) {
            guard let data = source.data else { continue }
            let profile: ProvisioningProfile
            do {
                profile = try ProvisioningProfile(data: data)
            } catch {
                problems.append("\(source.label) is \(error)")
                continue
            }
            let label = "\(source.label) (profile '\(profile.name)')"
            if profile.uuid.isEmpty || profile.uuid.contains("/") { problems.append("\(label) has no usable UUID") }
            if let problem = profile.expiryProblem(at: context.now, label: label) { problems.append(problem) }
            if let team = options.teamID, profile.teamID != team {
                problems.append("\(label) is for team '\(profile.teamID)', expected '\(team)'")
            }
            if let type = options.type, profile.type.rawValue != type.rawValue {
                problems.append("\(label) is a \(profile.type.rawValue) profile, expected \(type.rawValue)")
            }
            if let identifier = profile.applicationIdentifier {
                if !bundleIDs.isEmpty && !bundleIDs.contains(where: profile.matches(bundleID:)) {
                    let expected = Array(Set(bundleIDs)).sorted().map { "'\($0)'" }.joined(separator: ", ")
                    problems.append("\(label) has application-identifier '\(identifier)', which covers none of \(expected)")
                }
            } else {
                problems.append("\(label) has no Entitlements.application-identifier")
            }
            profiles.append((profile, data))
        }
        guard problems.isEmpty else { throw StepError.failed(problems.joined(separator: "\n")) }
        return profiles
    }

    func home(_ context: StepContext) throws -> String {
        try ProfileInstaller.home(options.home, in: context)
    }

    /// Read-only checks: every profile reads, is current and matches team, type and bundle identifiers.
    package func verify(in context: StepContext) async throws {
        _ = try home(context)
        _ = try readProfiles(context)
    }

    /// The files `run` would write, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let profiles = try readProfiles(context).map(\.profile)
        let folders = ProvisioningProfileLocations.folders(home: try home(context))
        var effects: [PlannedEffect] = []
        for profile in profiles {
            for folder in folders {
                effects.append(
                    .writeFile(
                        path: folder + "/" + ProvisioningProfileLocations.fileName(uuid: profile.uuid), diff: nil,
                        detail: "\(profile.type.rawValue) profile '\(profile.name)' for \(profile.applicationIdentifier ?? "?")"))
            }
        }
        effects.append(.note("teardown: remove the profiles installed"))
        return StepPlan(effects: effects, outputs: outputs(profiles, folder: folders[0]))
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let read = try readProfiles(context)
        let folders = ProvisioningProfileLocations.folders(home: try home(context))
        for (profile, data) in read {
            try ProfileInstaller.install(profile, data: data, home: try home(context), in: context)
        }
        return outputs(read.map(\.profile), folder: folders[0])
    }

    func outputs(_ profiles: [ProvisioningProfile], folder: String) -> StepOutputs {
        let paths = profiles.map { folder + "/" + ProvisioningProfileLocations.fileName(uuid: $0.uuid) }
        let first = profiles.first
        return StepOutputs([
            "path": .path(paths.first ?? ""),
            "paths": .list(paths.map { .path($0) }),
            "uuid": .string(first?.uuid ?? ""),
            "uuids": .list(profiles.map { .string($0.uuid) }),
            "name": .string(first?.name ?? ""),
            "names": .list(profiles.map { .string($0.name) }),
            "team_id": .string(first?.teamID ?? ""),
            "app_id": .string(first?.applicationIdentifier ?? ""),
            "type": .string(first?.type.rawValue ?? ""),
            "expires": .string(first?.expirationDate.map { Timestamp.iso8601($0) } ?? ""),
            "devices": .list((first?.devices ?? []).map { .string($0) }),
        ])
    }
}
