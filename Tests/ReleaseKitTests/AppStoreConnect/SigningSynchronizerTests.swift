import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseArtifacts
@testable import ReleaseHTTP
@testable import ReleaseSteps
@testable import ReleaseSupport

/// `signing.sync`'s work against the local App Store Connect: from an empty account to a certificate, bundle ids and
/// profiles; converging; renewing only what is stale; a revoked certificate explained. Every exchange is checked
/// against Apple's contract.
@Suite struct SigningSynchronizerTests {
    static let pem = (try? String(contentsOf: FixturePaths.fixture("Signing/CertificateKey.pem"), encoding: .utf8)) ?? ""
    static let bundleIDs = ["com.example.demo", "com.example.demo.widget"]

    func synchronizer(
        _ fixture: AppStoreConnectTestFixture, type: ProvisioningProfile.ProfileType = .appStore,
        now: Date = Date(), minDaysLeft: Int = 30, profileName: String? = nil
    ) throws -> SigningSynchronizer {
        SigningSynchronizer(
            client: try fixture.client(), key: try SigningKey(pem: Self.pem),
            specification: SigningSpecification(
                type: type, platform: .iOS, bundleIDs: Self.bundleIDs, minDaysLeft: minDaysLeft, now: now, profileName: profileName))
    }

    func writes(_ fixture: AppStoreConnectTestFixture) -> [String] {
        fixture.server.exchanges().filter { $0.method != "GET" }.map { "\($0.method) \($0.target.split(separator: "?")[0])" }
    }

    @Test func anEmptyAccountGetsOneCertificateTheBundleIDsAndProfilesThenNothingMore() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let sync = try synchronizer(fixture)
        let first = try await sync.assess()
        #expect(
            first.changes == [
                .createCertificate(type: "DISTRIBUTION"),
                .createBundleID(identifier: "com.example.demo", platform: "IOS"),
                .createBundleID(identifier: "com.example.demo.widget", platform: "IOS"),
                .createProfile(bundleID: "com.example.demo", name: "release app-store com.example.demo", reason: "new bundle id"),
                .createProfile(bundleID: "com.example.demo.widget", name: "release app-store com.example.demo.widget", reason: "new bundle id"),
            ])
        #expect(writes(fixture).isEmpty, "assessing writes nothing")
        let result = try await sync.apply(first) { _ in }
        #expect(result.writes == 5)
        #expect(writes(fixture) == ["POST /v1/certificates", "POST /v1/bundleIds", "POST /v1/profiles", "POST /v1/bundleIds", "POST /v1/profiles"])
        #expect(try SigningKey(pem: Self.pem).matches(certificate: result.certificate.der), "the certificate carries the key's public half")
        #expect(result.certificate.info.commonName == "Apple Distribution: Rehearsal Team (ABCDE12345)")

        // The profiles are real CMS-signed .mobileprovision files the profile reader parses.
        #expect(result.profiles.map(\.bundleID) == Self.bundleIDs)
        for (bundleID, found) in result.profiles {
            #expect(try CMSSignedData.content(of: found.content).starts(with: Array("<?xml".utf8)))
            let profile = try ProvisioningProfile(data: Data(found.content))
            #expect(profile.type == .appStore)
            #expect(profile.uuid == found.uuid && profile.name == found.name)
            #expect(profile.applicationIdentifier == "ABCDE12345.\(bundleID)")
            #expect(profile.developerCertificates == [result.certificate.der])
            #expect(profile.expirationDate.map { $0 > Date().addingTimeInterval(300 * 86_400) } == true)
        }

        // A second look finds everything: no change, and applying it writes nothing.
        fixture.server.clearExchanges()
        let second = try await sync.assess()
        #expect(second.isComplete, "\(second.changes)")
        #expect(second.bundles.map { $0.profile?.uuid } == result.profiles.map { $0.profile.uuid })
        #expect(second.certificate?.id == result.certificate.id)
        let again = try await sync.apply(second) { _ in }
        #expect(again.writes == 0 && writes(fixture).isEmpty)
        fixture.expectContract()
    }

    @Test func aDeviceAddedRenewsOnlyTheAdHocProfiles() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addDevice(name: "QA iPhone", udid: "00008110-000A1B2C3D4E5F60")
        fixture.server.addDevice(name: "Old iPad", udid: "00008027-00000000DEADBEEF", deviceClass: "IPAD", status: "DISABLED")
        fixture.server.addDevice(name: "Living room", udid: "00008020-0000000000A1B2C3", deviceClass: "APPLE_TV")
        let appStore = try synchronizer(fixture)
        let adHoc = try synchronizer(fixture, type: .adHoc)
        _ = try await appStore.apply(try await appStore.assess()) { _ in }
        let made = try await adHoc.apply(try await adHoc.assess()) { _ in }
        #expect(made.writes == 2, "the certificate and bundle ids are shared: only the two ad hoc profiles")
        let profile = try ProvisioningProfile(data: Data(made.profiles[0].profile.content))
        #expect(profile.type == .adHoc && profile.devices == ["00008110-000A1B2C3D4E5F60"], "enabled iOS devices only")

        fixture.server.addDevice(name: "New iPhone", udid: "00008120-0011223344556677")
        fixture.server.clearExchanges()
        #expect(try await appStore.assess().isComplete, "an App Store profile lists no devices")
        let stale = try await adHoc.assess()
        #expect(stale.changes.count == 2)
        for (change, bundleID) in zip(stale.changes, Self.bundleIDs) {
            guard case .renewProfile(let id, let name, _, let reason) = change else {
                Issue.record("\(change)")
                continue
            }
            #expect(id == bundleID && name == "release ad-hoc \(bundleID)")
            #expect(reason.contains("lacks 1 enabled device: 00008120-0011223344556677"), "\(reason)")
        }
        let renewed = try await adHoc.apply(stale) { _ in }
        #expect(
            writes(fixture) == [
                "DELETE /v1/profiles/\(made.profiles[0].profile.id)", "POST /v1/profiles",
                "DELETE /v1/profiles/\(made.profiles[1].profile.id)", "POST /v1/profiles",
            ])
        #expect(
            try ProvisioningProfile(data: Data(renewed.profiles[0].profile.content)).devices.sorted()
                == ["00008110-000A1B2C3D4E5F60", "00008120-0011223344556677"])
        #expect(try await adHoc.assess().isComplete)
        fixture.expectContract()
    }

    @Test func aProfileExpiringWithinMinDaysLeftIsRenewedAndOnlyThatOne() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let sync = try synchronizer(fixture)
        let made = try await sync.apply(try await sync.assess()) { _ in }
        let soon = Date().addingTimeInterval(10 * 86_400)
        #expect(try fixture.server.setProfileExpiration(name: "release app-store com.example.demo", to: soon))
        fixture.server.clearExchanges()
        let assessment = try await sync.assess()
        guard case .renewProfile(let bundleID, _, let uuid, let reason)? = assessment.changes.first, assessment.changes.count == 1 else {
            Issue.record("\(assessment.changes)")
            return
        }
        #expect(bundleID == "com.example.demo" && uuid == made.profiles[0].profile.uuid)
        #expect(reason.contains("within 30 days"), "\(reason)")
        #expect(try await synchronizer(fixture, minDaysLeft: 5).assess().isComplete, "with min_days_left 5 it is still good")
        let renewed = try await sync.apply(assessment) { _ in }
        #expect(renewed.writes == 2)
        #expect(renewed.profiles[0].profile.uuid != made.profiles[0].profile.uuid)
        #expect(renewed.profiles[1].profile.uuid == made.profiles[1].profile.uuid, "the widget's profile is left alone")
        fixture.expectContract()
    }

    @Test func aRevokedCertificateIsExplainedAndRecreatedOnlyWhenAllowed() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let sync = try synchronizer(fixture)
        let made = try await sync.apply(try await sync.assess()) { _ in }
        #expect(fixture.server.revokeCertificates(ofType: "DISTRIBUTION") == 1)
        let assessment = try await sync.assess()
        #expect(assessment.certificate == nil)
        #expect(assessment.missingCertificate?.serialNumber == made.certificate.info.serialNumber)
        let note = try #require(assessment.certificateNote)
        #expect(note.contains("is no longer on App Store Connect: it was revoked"), "\(note)")
        #expect(assessment.changes.first == .createCertificate(type: "DISTRIBUTION"))
        #expect(assessment.changes.dropFirst().allSatisfy { if case .renewProfile = $0 { true } else { false } }, "\(assessment.changes)")
        #expect(assessment.bundles[0].problem?.contains("it is INVALID") == true, "\(assessment.bundles[0].problem ?? "")")
        let renewed = try await sync.apply(assessment) { _ in }
        #expect(renewed.certificate.id != made.certificate.id)
        #expect(try await sync.assess().isComplete)
        fixture.expectContract()
    }

    @Test func theStandInIssuesCertificatesOnlyFromARealSignedRequest() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let csr = try SigningKey(pem: Self.pem).certificateSigningRequest()
        // A request whose signed part was changed no longer verifies with its own public key.
        var der = [UInt8](try #require(Data(base64Encoded: csr.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())))
        der[40] ^= 0x01
        for content in ["not a request", Data(der).base64EncodedString()] {
            let response = try await fixture.raw(
                "POST", "/v1/certificates",
                json: #"""
                    {"data": {"type": "certificates", "attributes": {"certificateType": "DISTRIBUTION", "csrContent": "\#(content)"}}}
                    """#)
            #expect(response.status == 409, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(String(decoding: response.body, as: UTF8.self).contains("/data/attributes/csrContent"))
        }
        let good = try await fixture.raw(
            "POST", "/v1/certificates",
            json: #"""
                {"data": {"type": "certificates", "attributes": {"certificateType": "DISTRIBUTION", "csrContent": "\#(csr.replacingOccurrences(of: "\n", with: "\\n"))"}}}
                """#)
        #expect(good.status == 201)
        fixture.expectContract(requests: false)
    }

    @Test func onlyRSAPrivateKeysInPEMAreAccepted() throws {
        #expect(throws: SigningKey.Failure.notPEM) { try SigningKey(pem: "hello") }
        let ec =
            "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBLV8bw8a0j4KzOgg9gBrp0cXkGkOnYSx1Yv6Fb+1jWnoAoGCCqGSM49\nAwEHoUQDQgAE2Sq0KSpqnLLLZ9WXFezGIHm5kKmTRzyP+Sl6FvoxFXJMdo7wo3TH\nNp4mXk+ZL3OUlU8NNs0yYvQn+n9kRtA7Bw==\n-----END EC PRIVATE KEY-----\n"
        #expect(throws: SigningKey.Failure.notRSA("an elliptic-curve key")) { try SigningKey(pem: ec) }
        let key = try SigningKey(pem: Self.pem)
        #expect(key.pkcs1PEM.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(try key.certificateSigningRequest().hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"))
        #expect(!"\(SigningKey.Failure.notRSA("x"))".contains("PRIVATE KEY-----\n"))
    }

    @Test func aRehearsalGivesAnUnsetCertificateKeyAnRSAKeyKeptForTheNextRehearsal() async throws {
        let storage = TestTemporary.root + "/release-rehearsal-key-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let first = try Rehearsal(storage: storage, environment: [:], secrets: ["CERTIFICATE_KEY", "SLACK_TOKEN"])
        first.stop()
        let pem = try #require(first.environment["CERTIFICATE_KEY"])
        _ = try SigningKey(pem: pem)
        #expect(first.placeholderSecrets.contains("CERTIFICATE_KEY"))
        #expect(first.environment["SLACK_TOKEN"]?.hasPrefix("rehearsal-") == true)
        let second = try Rehearsal(storage: storage, environment: [:], secrets: ["CERTIFICATE_KEY"])
        second.stop()
        #expect(second.environment["CERTIFICATE_KEY"] == pem, "the next rehearsal finds the certificate made from the same key")
    }

    @Test func aStaleProfileSomeoneElseMadeIsNeverDeletedAndAGoodOneIsUsed() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let sync = try synchronizer(fixture)
        let made = try await sync.apply(try await sync.assess()) { _ in }
        let bundleResource = try #require(try await sync.assess().bundles.first?.resourceID)
        // A teammate's own App Store profile for the app, with the same certificate.
        let manual = try await fixture.raw(
            "POST", "/v1/profiles",
            json: #"""
                {"data": {"type": "profiles", "attributes": {"name": "Demo App Store manual", "profileType": "IOS_APP_STORE"},
                  "relationships": {"bundleId": {"data": {"type": "bundleIds", "id": "\#(bundleResource)"}},
                                    "certificates": {"data": [{"type": "certificates", "id": "\#(made.certificate.id)"}]}}}}
                """#)
        #expect(manual.status == 201)
        // Ours expires soon, theirs soon after: ours is renewed, theirs is left alone.
        #expect(try fixture.server.setProfileExpiration(name: "release app-store com.example.demo", to: Date().addingTimeInterval(2 * 86_400)))
        #expect(try fixture.server.setProfileExpiration(name: "Demo App Store manual", to: Date().addingTimeInterval(4 * 86_400)))
        let stale = try await sync.assess()
        #expect(stale.changes.count == 1)
        if case .renewProfile(_, let name, _, _)? = stale.changes.first { #expect(name == "release app-store com.example.demo") } else { Issue.record("\(stale.changes)") }
        _ = try await sync.apply(stale) { _ in }
        #expect(fixture.server.summary().contains { $0.hasPrefix("profile IOS_APP_STORE 'Demo App Store manual' com.example.demo ACTIVE") })

        // Their profile, good again and listed first, is used as it is: nothing to change.
        #expect(try fixture.server.setProfileExpiration(name: "Demo App Store manual", to: Date().addingTimeInterval(200 * 86_400)))
        #expect(try await sync.assess().isComplete)
        fixture.expectContract()
    }

    /// `profile_name`: the name the Xcode steps' specifier asks for (`$(PRODUCT_BUNDLE_IDENTIFIER)` per bundle id). A
    /// usable profile of another name is not one Xcode would find, so it is not used: one of that name is made, and
    /// renewed as the sync's own.
    @Test func aProfileNameIsWhatEachProfileIsCalledAndNoOtherIsUsed() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let plain = try synchronizer(fixture)
        _ = try await plain.apply(try await plain.assess()) { _ in }
        let named = try synchronizer(fixture, profileName: "match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)")
        let assessment = try await named.assess()
        #expect(
            assessment.changes == [
                .createProfile(
                    bundleID: "com.example.demo", name: "match AppStore com.example.demo", reason: "it has no app-store profile named 'match AppStore com.example.demo'"),
                .createProfile(
                    bundleID: "com.example.demo.widget", name: "match AppStore com.example.demo.widget",
                    reason: "it has no app-store profile named 'match AppStore com.example.demo.widget'"),
            ], "the usable 'release app-store …' profiles are not the ones asked for")
        let made = try await named.apply(assessment) { _ in }
        #expect(made.profiles.map(\.profile.name) == ["match AppStore com.example.demo", "match AppStore com.example.demo.widget"])
        #expect(try ProvisioningProfile(data: Data(made.profiles[1].profile.content)).name == "match AppStore com.example.demo.widget")
        #expect(try await named.assess().isComplete)
        // Its own now: renewed when stale, the other name's profile left alone.
        #expect(try fixture.server.setProfileExpiration(name: "match AppStore com.example.demo", to: Date().addingTimeInterval(2 * 86_400)))
        let stale = try await named.assess()
        if case .renewProfile(_, let name, _, _)? = stale.changes.first, stale.changes.count == 1 {
            #expect(name == "match AppStore com.example.demo")
        } else {
            Issue.record("\(stale.changes)")
        }
        #expect(try await plain.assess().isComplete, "without a name, any usable profile still does")
        fixture.expectContract()
    }

    @Test func optionsAreCheckedBeforeAnythingRuns() throws {
        func options(_ change: (inout SigningSyncStep.Options) -> Void) -> SigningSyncStep.Options {
            var options = SigningSyncStep.Options()
            options.type = .appStore
            options.certificateKey = Self.pem
            options.appStoreConnect.keyID = "2X9R4HXF34"
            options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
            options.appStoreConnect.key = "-----BEGIN PRIVATE KEY-----"
            change(&options)
            return options
        }
        #expect(throws: StepError.invalidOption("type", "macos has no ad-hoc profiles")) {
            try SigningSyncStep(
                options: options {
                    $0.type = .adHoc; $0.platform = .init(.macOS)
                })
        }
        #expect(throws: StepError.invalidOption("certificate_key", "the private key is empty; pass ${secrets.CERTIFICATE_KEY}")) {
            try SigningSyncStep(options: options { $0.certificateKey = "  " })
        }
        #expect(throws: StepError.invalidOption("bundle_ids", "item 2 is empty")) {
            try SigningSyncStep(options: options { $0.bundleIDs = ["com.example.demo", " "] })
        }
        #expect(
            SigningSyncStep.Options.optionDocumentation.map(\.name) == [
                "type", "platform", "bundle_ids", "bundle_id", "project", "configuration", "certificate_key", "create", "readonly", "min_days_left",
                "profile_name", "key_id", "issuer_id", "key", "api", "keychain", "home",
            ], "the names DESIGN.md gives: type, bundle_ids, certificate_key, create, readonly, min_days_left")
        #expect(throws: StepError.invalidOption("profile_name", "is empty; leave it out for any usable profile")) {
            try SigningSyncStep(options: options { $0.profileName = " " })
        }
        let fixed = try SigningSyncStep(
            options: options {
                $0.profileName = "Demo Store"; $0.bundleIDs = Self.bundleIDs
            })
        #expect(
            throws: StepError.invalidOption(
                "profile_name",
                "'Demo Store' names one profile for 2 bundle ids (com.example.demo, com.example.demo.widget); put $(PRODUCT_BUNDLE_IDENTIFIER) where each bundle id goes, as in 'match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)'"
            )
        ) {
            try fixed.synchronizer(StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: "/", environment: [:]))
        }
        let step = try SigningSyncStep(options: options { _ in })
        #expect(step.options.minDaysLeft == 30 && step.options.create == false && step.options.readonly == nil)
        let context = StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: "/", environment: ["CI": "true"])
        #expect(step.isReadOnly(context), "readonly defaults to true on CI")
        #expect(!step.isReadOnly(StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: "/", environment: ["CI": "false"])))
        #expect(!step.isReadOnly(StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: "/", environment: [:])))
    }

    /// App Store signing of `project`'s bundle ids, with a key the options accept.
    static func appStoreOptions(project: String) -> SigningSyncStep.Options {
        var options = SigningSyncStep.Options()
        options.type = .appStore
        options.certificateKey = Self.pem
        options.appStoreConnect.keyID = "2X9R4HXF34"
        options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        options.appStoreConnect.key = "k"
        options.project = project
        return options
    }

    @Test func theProjectsAppAndExtensionBundleIDsAreTheDefault() throws {
        let step = try SigningSyncStep(options: Self.appStoreOptions(project: "Fixtures/DemoApp/Demo.xcodeproj"))
        let context = StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: FixturePaths.root.path, environment: [:])
        let found = try step.bundleIDs(context)
        #expect(found.count == 2 && Set(found) == ["com.example.demo", "com.example.demo.widget"], "the app and its widget, not the framework: \(found)")
    }

    /// `bundle_id` signs one app of a project that has several, and what it embeds: KeePassium's project holds the
    /// app, KeePassium Pro (`com.keepassium.ios.pro`, whose id starts with the app's) and the Intune build, each with
    /// an AutoFill extension; `release init` writes `bundle_id`, so its starter makes bundle ids and profiles for the
    /// app it releases only (it made all five).
    /// A watch app is an `application` target since Xcode 14, yet it is embedded (its host is the iOS app): it is
    /// signed with its host, not taken for an app of its own. Pocket Casts embeds one and 6 extensions.
    @Test(.needsShared(.realProjects)) func bundleIDSignsTheWatchAppItsAppEmbeds() throws {
        var options = Self.appStoreOptions(project: "podcasts.xcodeproj")
        options.bundleID = "au.com.shiftyjelly.podcasts"
        let head = try RealProjectsCorpus.require() + "/pocket-casts-ios/head"
        let context = StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: head, environment: [:])
        let found = try SigningSyncStep(options: options).bundleIDs(context)
        #expect(found.count == 8 && found.contains("au.com.shiftyjelly.podcasts.watchkitapp"), "\(found)")
        options.bundleID = "au.com.shiftyjelly.podcasts.watchkitapp"
        #expect(throws: StepError.self, "the watch app is not an app of the project's own") { try SigningSyncStep(options: options).bundleIDs(context) }
    }

    @Test(.needsShared(.realProjects)) func bundleIDSignsThatAppAndWhatItEmbedsOnly() throws {
        let apps = ["com.keepassium.ios", "com.keepassium.ios.pro", "com.keepassium.intune"]
        let found = apps + ["com.keepassium.ios.KeePassium-AutoFill", "com.keepassium.ios.pro.KeePassium-AutoFill", "com.keepassium.ios.watchkitapp"]
        #expect(
            SigningSyncStep.bundleIDs(of: "com.keepassium.ios", among: found, apps: apps) == [
                "com.keepassium.ios", "com.keepassium.ios.KeePassium-AutoFill", "com.keepassium.ios.watchkitapp",
            ])
        #expect(SigningSyncStep.bundleIDs(of: "com.keepassium.ios.pro", among: found, apps: apps) == ["com.keepassium.ios.pro", "com.keepassium.ios.pro.KeePassium-AutoFill"])

        var options = Self.appStoreOptions(project: "KeePassium.xcodeproj")
        let head = try RealProjectsCorpus.require() + "/keepassium/head"
        let context = StepContext(stepID: "signing", kind: SigningSyncStep.kind, workingDirectory: head, environment: [:])
        #expect(try SigningSyncStep(options: options).bundleIDs(context).count == 5, "without bundle_id: every app of the project")
        options.bundleID = "com.keepassium.ios"
        #expect(try SigningSyncStep(options: options).bundleIDs(context) == ["com.keepassium.ios", "com.keepassium.ios.KeePassium-AutoFill"])
        options.bundleID = "com.keepassium.ios.KeePassium-AutoFill"
        #expect(
            throws: StepError.invalidOption(
                "bundle_id",
                "'com.keepassium.ios.KeePassium-AutoFill' is not the bundle id of an app in 'KeePassium.xcodeproj'; its apps: com.keepassium.ios, com.keepassium.ios.pro, com.keepassium.intune"
            )
        ) { try SigningSyncStep(options: options).bundleIDs(context) }
        options.bundleIDs = ["com.keepassium.ios"]
        #expect(throws: StepError.self) { try SigningSyncStep(options: options) }
    }
}
