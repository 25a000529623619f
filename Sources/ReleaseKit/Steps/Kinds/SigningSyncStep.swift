import Foundation
import ReleaseAppStoreConnect
import ReleaseApple
import ReleaseArtifacts
import ReleaseSupport
import ReleaseVersioning

/// `signing.sync`: certificates, bundle ids and profiles through the App Store Connect API from the certificate's
/// private key, what Codemagic's `fetch-signing-files` and fastlane's `match` (without its git repository) do.
///
/// Preflight (``verify(in:)``) reads App Store Connect (``SigningSynchronizer/assess()``): the certificate whose
/// public key is the private key's, each bundle id (default: the project's app and its extensions), and per bundle
/// id a profile of the type that is active, valid for `min_days_left` more days, names the certificate and, for ad
/// hoc and development, lists every enabled device. When something is missing or stale it fails, listing what a
/// sync would change and how to let it, unless `create` is true and `readonly` is false (`readonly` defaults to
/// true on CI, where `CI` is set). `run` then makes exactly those writes (a certificate from a signing request
/// made with the key; bundle ids; profiles, deleting first a stale one it made itself, named `profile_name` when given
/// (`release ${channel} $(PRODUCT_BUNDLE_IDENTIFIER)`: the name the Xcode steps' `PROVISIONING_PROFILE_SPECIFIER`
/// asks for, so manual signing finds them; only profiles of that name are then used), else
/// ``SigningSynchronizer/profileName(bundleID:type:)``), and installs the certificate with its key in a temporary
/// keychain and the profiles where Xcode looks for them, as `signing.keychain` and `signing.profile` do; teardown
/// removes them. Nothing is ever revoked. A second run finds everything and writes nothing.
package struct SigningSyncStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the profile type: app-store, ad-hoc, development or enterprise")
        package var type: SigningProfileStep.ProfileTypeChoice
        @StepOption(help: "the platform: \(ApplePlatform.SigningSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.SigningSpelling> = .init(.iOS)
        @StepOption(
            name: "bundle_ids", must: .notBeEmpty("must list at least one bundle id, or be left out for the project's"), .haveNoEmptyItem(trimmed: true),
            help: "the bundle ids to sign (default: the project's app and its extensions)")
        package var bundleIDs: [String]?
        @StepOption(
            name: "bundle_id",
            must: .notBeEmpty(trimmed: true, "is empty"),
            help: "sign this app of the project and what it embeds: the targets whose bundle id starts with it and belongs to no other app of the project (default: every app)")
        package var bundleID: String?
        @StepOption(.path, help: "the Xcode project the default bundle ids are read from (default: the one in the working directory)")
        package var project: String?
        @StepOption(help: "the build configuration whose bundle ids are read from the project")
        package var configuration: String = "Release"
        @StepOption(
            must: .notBeEmpty(trimmed: true, "the private key is empty; pass ${secrets.CERTIFICATE_KEY}"),
            help: "the signing certificate's private key (RSA 2048, PEM), normally ${secrets.CERTIFICATE_KEY}")
        package var certificateKey: String
        @StepOption(help: "create a missing certificate, bundle id or profile, and renew stale profiles signing.sync made")
        package var create: Bool = false
        @StepOption(help: "change nothing on App Store Connect: fail in preflight, listing what would change (default: true when CI is set)")
        package var readonly: Bool?
        @StepOption(range: 0...365, help: "days a profile (or certificate) must still be valid; one expiring sooner is renewed")
        package var minDaysLeft: Int = 30
        @StepOption(
            must: .notBeEmpty(trimmed: true, "is empty; leave it out for any usable profile"),
            help:
                "the Name every profile must have, $(PRODUCT_BUNDLE_IDENTIFIER) standing for its bundle id: what the Xcode steps' PROVISIONING_PROFILE_SPECIFIER names, so Xcode finds the profile installed (default: any usable profile, preferring 'release <type> <bundle id>'); profiles of that name are made, and renewed, as signing.sync's own"
        )
        package var profileName: String?
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions
        @StepOption(.path, help: "the keychain file to create (default: release-<step id>.keychain-db in the run's scratch folder)")
        package var keychain: String?
        @StepOption(.path, help: "the home folder whose Library receives the profiles (default: $HOME)")
        package var home: String?

        package init() {}

        package static let exclusions: [OptionExclusion] = [
            .atMostOne(["bundle_id", "bundle_ids"], at: "bundle_id", "give either bundle_id (an app of the project and its extensions) or bundle_ids, not both")
        ]
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "signing.sync"
    package static let exportTraits = ExportTraits(runner: .macOS("signs into the Mac's keychain"))
    /// One line for `release steps`.
    package static let summary =
        "Find (or with create: true make and renew) the certificate, bundle ids and profiles on App Store Connect from the certificate's private key, and install them for this run; teardown removes them"
    package static let outputs: [StepDocumentation.Output] = [
        .init("profiles", "string", "{bundle id: {name, uuid}} as JSON text"),
        .init("paths", "list", "every profile as installed in Xcode 16's folder, for xcode.export's 'profiles' (its default)"),
        .init("bundle_ids", "list", "the bundle ids, in order"),
        .init("names", "list", "each bundle id's profile Name"),
        .init("uuids", "list", "each bundle id's profile UUID"),
        .init("path", "path", "the keychain file"),
        .init("keychain", "path", "the keychain file (same as path)"),
        .init("identity", "string", "the code signing identity's name, 'Apple Distribution: Name (TEAMID)'"),
        .init("certificate_serial", "string", "the certificate's serial number"),
        .init("certificate_expires", "string", "the certificate's expiry, ISO 8601 UTC"),
        .init("writes", "number", "write requests made to App Store Connect (0 when everything was there)"),
    ]
    package static let example = """
        { "id": "signing", "uses": "signing.sync", "when": {"os": "macos"},
          "with": { "type": "app-store", "certificate_key": "${secrets.CERTIFICATE_KEY}", "create": true,
                    "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}",
                    "key": "${secrets.APP_STORE_CONNECT_KEY}" } }
        """

    package let options: Options
    let access: AppStoreConnectAccess

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty key or bundle id, a type the platform has no profile
    ///   of, or bad API options.
    package init(options: Options) throws {
        try options.validate()
        let type = ProvisioningProfile.ProfileType(rawValue: options.type.rawValue) ?? .appStore
        if options.platform.platform.profileType(type) == nil {
            throw StepError.invalidOption("type", "\(options.platform.rawValue) has no \(options.type.rawValue) profiles")
        }
        access = AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    // MARK: Parts

    /// Whether the run may change App Store Connect: `readonly`, else true when `CI` is set (and not "false"/"0").
    func isReadOnly(_ context: StepContext) -> Bool {
        if let readonly = options.readonly { return readonly }
        return CIEnvironment.isCI(context.environment)
    }

    /// The private key, masked from here on in everything the run prints (its PKCS #1 form too).
    func signingKey(_ context: StepContext) throws -> SigningKey {
        context.masker.add(options.certificateKey)
        do {
            let key = try SigningKey(pem: options.certificateKey)
            context.masker.add(key.pkcs1PEM)
            return key
        } catch {
            throw StepError.invalidOption("certificate_key", error.description)
        }
    }

    /// `bundle_ids`, else the app and extension targets' bundle ids of the project for `configuration`: those of the
    /// app `bundle_id` names when given (see ``bundleIDs(of:among:)``), else all.
    func bundleIDs(_ context: StepContext) throws -> [String] {
        if let bundleIDs = options.bundleIDs { return bundleIDs.map { $0.trimmingCharacters(in: .whitespaces) } }
        if let project = options.project { try context.requireFile(project, option: "project") }
        let report = try VersionReader.read(project: options.project.map(context.resolvePath), in: context.workingDirectory).report
        let signed = report.entries.filter { entry in
            let type = entry.productType ?? ""
            return type.hasPrefix("com.apple.product-type.application") || type.contains("extension") || type.contains("watchapp")
        }
        func identifiers(_ entries: [VersionEntry]) -> [String] {
            var seen: Set<String> = []
            return entries.compactMap(\.bundleIdentifier).filter { !$0.isEmpty && !$0.contains("$") && seen.insert($0).inserted }
        }
        var chosen = signed.filter { $0.configuration == options.configuration }
        var found = identifiers(chosen)
        if found.isEmpty { (chosen, found) = (signed, identifiers(signed)) }
        guard !found.isEmpty else {
            throw StepError.invalidOption("bundle_ids", "the project '\(report.project)' has no app or extension target with a bundle identifier; list them in 'bundle_ids'")
        }
        guard let app = options.bundleID?.trimmingCharacters(in: .whitespaces) else { return found }
        // An app another app embeds (a watch app, `com.apple.product-type.application` since Xcode 14, whose host is
        // the iOS app) is signed with its host, not an app of its own.
        let apps = identifiers(chosen.filter { $0.productType == "com.apple.product-type.application" && $0.host == nil })
        guard apps.contains(app) else {
            throw StepError.invalidOption(
                "bundle_id", "'\(app)' is not the bundle id of an app in '\(report.project)'; its apps: \(apps.isEmpty ? "none" : apps.joined(separator: ", "))")
        }
        return Self.bundleIDs(of: app, among: found, apps: apps)
    }

    /// The bundle ids `app` signs among `found`: itself and every id that starts with it and a dot (Apple requires an
    /// extension's, a watch app's and its extension's id to start with their app's), unless a longer one of the
    /// project's `apps` contains it too: KeePassium's `com.keepassium.ios` signs its AutoFill extension, not the Pro
    /// app `com.keepassium.ios.pro` nor that app's extension.
    package static func bundleIDs(of app: String, among found: [String], apps: [String]) -> [String] {
        func owner(_ identifier: String) -> String? {
            apps.filter { identifier == $0 || identifier.hasPrefix($0 + ".") }.max { $0.count < $1.count }
        }
        return found.filter { owner($0) == app }
    }

    func synchronizer(_ context: StepContext) throws -> SigningSynchronizer {
        let key = try signingKey(context)
        let bundleIDs = try bundleIDs(context)
        // One Name for several bundle ids would be one profile for them all: App Store Connect names are unique.
        if let name = options.profileName, bundleIDs.count > 1, !name.contains(SigningSpecification.bundleIDReference),
            !name.contains("${PRODUCT_BUNDLE_IDENTIFIER}")
        {
            throw StepError.invalidOption(
                "profile_name",
                "'\(name)' names one profile for \(bundleIDs.count) bundle ids (\(bundleIDs.joined(separator: ", "))); put $(PRODUCT_BUNDLE_IDENTIFIER) where each bundle id goes, as in 'match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)'"
            )
        }
        let specification = SigningSpecification(
            type: ProvisioningProfile.ProfileType(rawValue: options.type.rawValue) ?? .appStore,
            platform: options.platform.platform,
            bundleIDs: bundleIDs, minDaysLeft: options.minDaysLeft, now: context.now, profileName: options.profileName)
        return SigningSynchronizer(client: try access.client(in: context), key: key, specification: specification)
    }

    /// What App Store Connect holds and what a sync would change (read-only).
    package func assess(in context: StepContext) async throws -> SigningAssessment {
        let synchronizer = try synchronizer(context)
        do {
            return try await synchronizer.assess()
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }

    /// The failure when `assessment` needs writes the options do not allow; nil when none is needed or they are allowed.
    package func refusal(_ assessment: SigningAssessment, _ context: StepContext) -> StepError? {
        guard !assessment.isComplete else { return nil }
        let readonly = isReadOnly(context)
        guard readonly || !options.create else { return nil }
        var lines = [
            "signing.sync would have to change App Store Connect, and changed nothing ("
                + (readonly ? (options.readonly == true ? "readonly: true" : "readonly: true, the default when CI is set") : "create: false") + "):"
        ]
        lines += assessment.changes.map { "  - \($0)" }
        if let note = assessment.certificateNote { lines.append(note) }
        for bundle in assessment.bundles where bundle.profile == nil && bundle.resourceID != nil {
            if let problem = bundle.problem { lines.append("\(bundle.identifier): \(problem)") }
        }
        lines.append(
            "to make these changes, run 'release run <this pipeline> --only \(context.stepID)' with \"create\": true"
                + (readonly ? " where readonly is false (a machine without CI set, or \"readonly\": false)" : "")
                + "; 'release signing status' shows the same without running anything")
        return StepError.failed(lines.joined(separator: "\n"))
    }

    // MARK: Step

    /// Read-only checks: the key is an RSA key, App Store Connect is reachable with the API key, and either
    /// everything is there or the options allow the changes needed.
    package func verify(in context: StepContext) async throws {
        let assessment = try await assess(in: context)
        for line in Self.describe(assessment) { context.log(line) }
        if let refusal = refusal(assessment, context) { throw refusal }
        try context.requireCommand("security", purpose: "signing.sync installs the certificate in a keychain on macOS")
    }

    /// The requests and commands `run` would send and run.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let assessment = try await assess(in: context)
        if let refusal = refusal(assessment, context) { throw refusal }
        let api = try access.apiURL(in: context)
        var effects: [PlannedEffect] = assessment.changes.map { change in
            switch change {
            case .createCertificate: return .request(method: "POST", url: api + "/v1/certificates", detail: change.description)
            case .createBundleID: return .request(method: "POST", url: api + "/v1/bundleIds", detail: change.description)
            case .createProfile: return .request(method: "POST", url: api + "/v1/profiles", detail: change.description)
            case .renewProfile: return .request(method: "DELETE", url: api + "/v1/profiles/…", detail: change.description)
            }
        }
        let keychain = keychainPath(context)
        effects += Self.plannedKeychainCommands(keychain)
        let home = try ProfileInstaller.home(options.home, in: context)
        for bundle in assessment.bundles {
            let detail = "\(options.type.rawValue) profile for \(bundle.identifier)"
            if let profile = bundle.profile {
                effects.append(
                    .writeFile(
                        path: ProvisioningProfileLocations.folders(home: home)[0] + "/" + ProvisioningProfileLocations.fileName(uuid: profile.uuid),
                        diff: nil, detail: detail + " '\(profile.name)'"))
            } else {
                effects.append(.note("install the new \(detail) in '\(ProvisioningProfileLocations.folders(home: home)[0])'"))
            }
        }
        effects.append(.note("teardown: delete '\(keychain)', restore the user's search list and remove the profiles installed"))
        var outputs: [String: OutputValue] = [
            "path": .path(keychain), "keychain": .path(keychain),
            "bundle_ids": .list(assessment.bundles.map { .string($0.identifier) }),
        ]
        if assessment.isComplete {
            let found = assessment.bundles.compactMap { bundle in bundle.profile.map { (bundle.identifier, $0) } }
            outputs.merge(Self.profileOutputs(found, home: home)) { _, new in new }
        } else {
            // Promised, so an export planned from them shows its command: a profile to be made has no UUID yet.
            let folder = ProvisioningProfileLocations.folders(home: home)[0]
            outputs["paths"] = .list(
                assessment.bundles.map { bundle in
                    .path(folder + "/" + (bundle.profile.map { ProvisioningProfileLocations.fileName(uuid: $0.uuid) } ?? "<new profile for \(bundle.identifier)>.mobileprovision"))
                })
        }
        return StepPlan(effects: effects, outputs: StepOutputs(outputs))
    }

    /// The `security` commands that make the keychain and import the key and the certificate into it.
    static func plannedKeychainCommands(_ keychain: String) -> [PlannedEffect] {
        TemporaryKeychain.plannedCommands(
            keychain,
            imports: [
                SecurityCommand.importPrivateKey("<private key, PKCS #1>", keychain: keychain),
                SecurityCommand.importCertificateFile("<certificate>", keychain: keychain),
            ]
        ).map { .command(argv: $0, directory: nil) }
    }

    /// A dry run without the real keys: the keychain it would make and fill, and the profiles folder, without what
    /// App Store Connect would answer.
    package func offlinePlan(in context: StepContext) -> StepPlan? {
        let keychain = keychainPath(context)
        var effects: [PlannedEffect] = [.note("find (or with create: true make) the \(options.type.rawValue) certificate, bundle ids and profiles on App Store Connect")]
        effects += Self.plannedKeychainCommands(keychain)
        effects.append(.note("teardown: delete '\(keychain)', restore the user's search list and remove the profiles installed"))
        let profiles =
            ((try? ProfileInstaller.home(options.home, in: context)).map { ProvisioningProfileLocations.folders(home: $0)[0] } ?? "~")
            + "/<the profiles signing.sync finds>.mobileprovision"
        return StepPlan(effects: effects, outputs: StepOutputs(["path": .path(keychain), "keychain": .path(keychain), "paths": .list([.path(profiles)])]))
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let synchronizer = try synchronizer(context)
        let result: SigningSynchronizer.Result
        do {
            let assessment = try await synchronizer.assess()
            if let refusal = refusal(assessment, context) { throw refusal }
            result = try await synchronizer.apply(assessment) { line in context.log(line) }
        } catch let error as StepError {
            throw error
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
        context.log(
            "certificate \(result.certificate.info.serialNumber) '\(result.certificate.info.commonName)', valid until \(Timestamp.iso8601(result.certificate.info.notValidAfter))"
                + (result.writes == 0 ? "; App Store Connect had everything (no write)" : "; \(result.writes) write\(result.writes == 1 ? "" : "s") to App Store Connect"))

        // The certificate and its key in a temporary keychain.
        let keychain = try await TemporaryKeychain.create(at: keychainPath(context), in: context)
        let folder = (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID)-\(UUID().uuidString)")
        defer { try? context.files.remove(folder) }
        let keyFile = folder + "/signing.key"
        let certificateFile = folder + "/signing.cer"
        try InlineContents.writePrivate(Data(synchronizer.key.pkcs1PEM.utf8), to: keyFile)
        do {
            defer { try? context.files.remove(keyFile) }
            try await TemporaryKeychain.run(SecurityCommand.importPrivateKey(keyFile, keychain: keychain.path), context)
        }
        try InlineContents.writePrivate(Data(result.certificate.der), to: certificateFile)
        try await TemporaryKeychain.run(SecurityCommand.importCertificateFile(certificateFile, keychain: keychain.path), context)
        let identities = try await keychain.finish(in: context)

        // The profiles where Xcode looks.
        let home = try ProfileInstaller.home(options.home, in: context)
        for (bundleID, found) in result.profiles {
            let data = Data(found.content)
            let profile: ProvisioningProfile
            do {
                profile = try ProvisioningProfile(data: data)
            } catch {
                throw StepError.failed("the profile '\(found.name)' App Store Connect has for \(bundleID) is \(error)")
            }
            try ProfileInstaller.install(profile, data: data, home: home, in: context)
        }
        var outputs = Self.profileOutputs(result.profiles.map { ($0.bundleID, $0.profile) }, home: home)
        outputs["path"] = .path(keychain.path)
        outputs["keychain"] = .path(keychain.path)
        outputs["bundle_ids"] = .list(result.profiles.map { .string($0.bundleID) })
        outputs["identity"] = .string(identities[0].name)
        outputs["certificate_serial"] = .string(result.certificate.info.serialNumber)
        outputs["certificate_expires"] = .string(Timestamp.iso8601(result.certificate.info.notValidAfter))
        outputs["writes"] = .number(Double(result.writes))
        return StepOutputs(outputs)
    }

    func keychainPath(_ context: StepContext) -> String {
        options.keychain.map(context.resolvePath) ?? (context.temporaryDirectory as NSString).appendingPathComponent("release-\(context.stepID).keychain-db")
    }

    /// `profiles` (JSON text), `paths`, `names` and `uuids` for profiles found or made.
    static func profileOutputs(_ profiles: [(String, SigningAssessment.FoundProfile)], home: String) -> [String: OutputValue] {
        let folder = ProvisioningProfileLocations.folders(home: home)[0]
        var object: [String: Any] = [:]
        for (bundleID, profile) in profiles { object[bundleID] = ["name": profile.name, "uuid": profile.uuid] }
        return [
            "profiles": .string(String(decoding: JSONWriter.data(object) ?? Data("{}".utf8), as: UTF8.self)),
            "paths": .list(profiles.map { .path(folder + "/" + ProvisioningProfileLocations.fileName(uuid: $0.1.uuid)) }),
            "names": .list(profiles.map { .string($0.1.name) }),
            "uuids": .list(profiles.map { .string($0.1.uuid) }),
        ]
    }

    /// What was found, one line each: the certificate and each bundle id's profile, and the changes a sync would make.
    package static func describe(_ assessment: SigningAssessment) -> [String] {
        var lines: [String] = []
        if let certificate = assessment.certificate {
            lines.append(
                "certificate \(certificate.type) \(certificate.info.serialNumber) '\(certificate.info.commonName)', valid until \(Timestamp.iso8601(certificate.info.notValidAfter))"
            )
        } else {
            lines.append("certificate: none for this key" + (assessment.certificateNote.map { " (\($0))" } ?? ""))
        }
        for bundle in assessment.bundles {
            if let profile = bundle.profile {
                lines.append("\(bundle.identifier): profile '\(profile.name)' (\(profile.uuid))" + (profile.expires.map { ", valid until \(Timestamp.iso8601($0))" } ?? ""))
            } else {
                lines.append("\(bundle.identifier): \(bundle.problem ?? "no usable profile")")
            }
        }
        for change in assessment.changes { lines.append("would \(change)") }
        return lines
    }
}
