import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `gate.ipa`: opens an `.ipa` and rejects the release when what App Review and installation check is wrong:
/// `Payload/*.app/Info.plist` (XML or binary) lacks a required key or has the wrong version or build; the
/// embedded provisioning profile is of the wrong type for the channel, has expired, or is for another app.
///
/// `embedded.mobileprovision` is read as a ``ProvisioningProfile`` (the same reader `signing.profile` uses). The
/// signature is not verified: iOS does that at installation; this gate checks what the profile says.
package struct IPAGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "the .ipa to check")
        package var ipa: String
        @StepOption(help: "the profile type the build needs")
        package var channel: Channel?
        @StepOption(help: "CFBundleShortVersionString must equal it, e.g. ${steps.bump.outputs.version}")
        package var version: String?
        @StepOption(help: "CFBundleVersion must equal it")
        package var build: String?
        @StepOption(help: "CFBundleIdentifier must equal it")
        package var bundleID: String?
        @StepOption(help: "reject an ipa without embedded.mobileprovision")
        package var requireProfile: Bool = true

        package init() {}
    }

    /// A distribution channel: each needs its own kind of provisioning profile.
    package enum Channel: String, OptionChoice, Equatable {
        /// App Store and TestFlight: a distribution profile without devices.
        case appStore = "app-store"
        /// Registered testers' devices: a distribution profile listing them.
        case adHoc = "ad-hoc"
        /// Debuggable builds: `get-task-allow` true.
        case development
        /// In-house distribution: `ProvisionsAllDevices` true.
        case enterprise
    }

    /// Keys every app's Info.plist must have.
    package static let requiredKeys = ["CFBundleIdentifier", "CFBundleShortVersionString", "CFBundleVersion", "MinimumOSVersion"]

    /// The stable kind pipelines use in `uses`.
    package static let kind = "gate.ipa"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    /// One line for `release steps`.
    package static let summary = "Reject an .ipa whose Info.plist or provisioning profile (type, expiry, app identifier) is wrong"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("bundle_id", "string", "CFBundleIdentifier"),
        .init("version", "string", "CFBundleShortVersionString"),
        .init("build", "string", "CFBundleVersion"),
        .init("minimum_os", "string", "MinimumOSVersion"),
        .init("profile_name", "string", "the profile's Name (empty without a profile)"),
        .init("profile_type", "string", "app-store, ad-hoc, development or enterprise, from the profile's contents"),
        .init("team_id", "string", "the profile's team identifier"),
        .init("expires", "string", "the profile's ExpirationDate, ISO 8601 UTC"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        { "id": "check-ipa", "uses": "gate.ipa", "gate": true, "needs": ["export"],
          "with": { "ipa": "build/Demo.ipa", "channel": "app-store",
                    "version": "${steps.bump.outputs.version}", "build": "${steps.bump.outputs.build}" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty path, or a channel without a required profile.
    package init(options: Options) throws {
        try options.validate()
        if options.channel != nil, !options.requireProfile {
            throw StepError.invalidOption("require_profile", "'channel' is checked on the profile, so the profile is required")
        }
        self.options = options
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        try context.requireFile(options.ipa, option: "ipa")
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.note("check Info.plist and the provisioning profile in '\(context.resolvePath(options.ipa))'")])
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let path = try context.requireFile(options.ipa, option: "ipa")
        let contents: IPAContents
        do {
            contents = try await BlockingWork.run { _ in try IPAContents.read(path) }
        } catch {
            throw StepError.rejected(["'\(path)' is not a readable ipa: \(error)"])
        }
        guard let app = contents.app, contents.infoPlist != nil else {
            throw StepError.rejected(["'\(path)' has no Payload/*.app/Info.plist"])
        }
        var problems: [String] = []
        if contents.apps.count > 1 {
            problems.append("'\(path)' holds \(contents.apps.count) apps (\(contents.apps.joined(separator: ", "))), expected one")
        }
        let infoName = "\(app)/Info.plist"
        guard contents.isInfoDictionary else {
            throw StepError.rejected(problems + ["'\(path)': \(infoName) is not a property list dictionary"])
        }
        let string = contents.string
        for key in Self.requiredKeys where string(key) == nil {
            problems.append(
                !contents.infoKeys.contains(key)
                    ? "'\(path)': \(infoName) has no '\(key)'"
                    : "'\(path)': \(infoName) has '\(key)' but it is not a non-empty string")
        }
        let bundleID = string("CFBundleIdentifier") ?? ""
        let version = string("CFBundleShortVersionString") ?? ""
        let build = string("CFBundleVersion") ?? ""
        if let expected = options.version, !version.isEmpty, version != expected {
            problems.append("'\(path)': \(infoName) has CFBundleShortVersionString '\(version)', expected '\(expected)'")
        }
        if let expected = options.build, !build.isEmpty, build != expected {
            problems.append("'\(path)': \(infoName) has CFBundleVersion '\(build)', expected '\(expected)'")
        }
        if let expected = options.bundleID, !bundleID.isEmpty, bundleID != expected {
            problems.append("'\(path)': \(infoName) has CFBundleIdentifier '\(bundleID)', expected '\(expected)'")
        }

        var outputs = StepOutputs([
            "bundle_id": .string(bundleID), "version": .string(version), "build": .string(build),
            "minimum_os": .string(string("MinimumOSVersion") ?? ""),
            "profile_name": .string(""), "profile_type": .string(""), "team_id": .string(""), "expires": .string(""),
        ])
        let profileName = "\(app)/embedded.mobileprovision"
        if let profileData = contents.profile {
            problems += checkProfile(profileData, at: "'\(path)': \(profileName)", bundleID: bundleID, now: context.now, outputs: &outputs)
        } else if options.requireProfile {
            problems.append("'\(path)' has no \(profileName)" + (options.channel.map { ", expected a provisioning profile for channel '\($0.rawValue)'" } ?? ""))
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        context.log(
            "\(bundleID) \(version) (\(build))"
                + (contents.profile == nil
                    ? "" : ", \(outputs["profile_type"]?.text ?? "") profile '\(outputs["profile_name"]?.text ?? "")' valid until \(outputs["expires"]?.text ?? "")"))
        return outputs
    }

    /// The profile's problems; fills the profile outputs.
    func checkProfile(_ data: Data, at place: String, bundleID: String, now: Date, outputs: inout StepOutputs) -> [String] {
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfile(data: data)
        } catch ProvisioningProfile.Failure.notADictionary {
            return ["\(place): \(ProvisioningProfile.Failure.notADictionary)"]
        } catch {
            return ["\(place) is \(error)"]
        }
        var problems: [String] = []
        let label = "\(place) (profile '\(profile.name)')"
        let team = profile.teamID
        outputs["profile_name"] = .string(profile.name)
        outputs["profile_type"] = .string(profile.type.rawValue)
        outputs["team_id"] = .string(team)

        if let channel = options.channel {
            let devices = profile.devices.count
            switch channel {
            case .appStore:
                if devices > 0 { problems.append("\(label) has ProvisionedDevices (\(devices)), expected none for channel 'app-store' (it is an ad-hoc or development profile)") }
                if profile.provisionsAllDevices { problems.append("\(label) has ProvisionsAllDevices true, expected none for channel 'app-store' (it is an enterprise profile)") }
                if profile.getTaskAllow { problems.append("\(label) has get-task-allow true, expected false for channel 'app-store'") }
            case .adHoc:
                if devices == 0 { problems.append("\(label) has no ProvisionedDevices, expected the testers' devices for channel 'ad-hoc'") }
                if profile.getTaskAllow { problems.append("\(label) has get-task-allow true, expected false for channel 'ad-hoc'") }
            case .development:
                if !profile.getTaskAllow { problems.append("\(label) has get-task-allow false, expected true for channel 'development'") }
            case .enterprise:
                if !profile.provisionsAllDevices { problems.append("\(label) has no ProvisionsAllDevices true, expected it for channel 'enterprise'") }
            }
        }

        if let expiration = profile.expirationDate { outputs["expires"] = .string(Timestamp.iso8601(expiration)) }
        if let problem = profile.expiryProblem(at: now, label: label) { problems.append(problem) }

        if let identifier = profile.applicationIdentifier {
            if !bundleID.isEmpty && !profile.matches(bundleID: bundleID) {
                problems.append(
                    "\(label) has application-identifier '\(identifier)', which does not match bundle identifier '\(bundleID)' (expected '\(team.isEmpty ? "TEAMID" : team).\(bundleID)' or a wildcard)"
                )
            }
        } else {
            problems.append("\(label) has no Entitlements.application-identifier")
        }
        return problems
    }
}
