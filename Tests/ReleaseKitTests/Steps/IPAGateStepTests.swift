import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps

@Suite struct IPAGateStepTests {
    static func ipa(_ name: String) -> String { FixturePaths.fixture("IPA/\(name).ipa").path }
    static let profile = "Payload/Demo.app/embedded.mobileprovision"
    static let info = "Payload/Demo.app/Info.plist"

    @Test func acceptsAnAdHocBuildWithItsProfile() async throws {
        let result = try await GatePipelines.runGate(
            "gate.ipa", ["ipa": Self.ipa("adhoc"), "channel": "ad-hoc", "version": "3.0.1", "build": "4322", "bundle_id": "com.example.demo"])
        #expect(result.statuses == ["gate=ok"])
        #expect(result.exitCode == 0)
        let outputs = try #require(result.step("gate")?.outputs)
        #expect(outputs["bundle_id"] == .string("com.example.demo"))
        #expect(outputs["version"] == .string("3.0.1"))
        #expect(outputs["build"] == .string("4322"))
        #expect(outputs["minimum_os"] == .string("15.0"))
        #expect(outputs["profile_name"] == .string("Demo AdHoc"))
        #expect(outputs["profile_type"] == .string("ad-hoc"))
        #expect(outputs["team_id"] == .string("ABCDE12345"))
        #expect(outputs["expires"] == .string("2030-01-01T00:00:00Z"))
    }

    @Test func acceptsAnAppStoreBuildWithABinaryInfoPlist() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.ipa("appstore")))
        #expect(data.count > 0)
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": Self.ipa("appstore"), "channel": "app-store", "version": "3.0.1"])
        #expect(result.statuses == ["gate=ok"])
        #expect(result.step("gate")?.outputs["profile_type"] == .string("app-store"))
        #expect(result.step("gate")?.outputs["profile_name"] == .string("Demo App Store"))
    }

    @Test func acceptsAWildcardDevelopmentProfile() async throws {
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": Self.ipa("wildcard"), "channel": "development"])
        #expect(result.statuses == ["gate=ok"])
        #expect(result.step("gate")?.outputs["profile_type"] == .string("development"))
    }

    @Test func rejectsAnAdHocProfileForTheAppStore() async throws {
        let path = Self.ipa("adhoc")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "app-store"])
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.exitCode == 2)
        #expect(
            result.step("gate")?.message
                == "'\(path)': \(Self.profile) (profile 'Demo AdHoc') has ProvisionedDevices (2), expected none for channel 'app-store' (it is an ad-hoc or development profile)")
    }

    @Test func rejectsAnAppStoreProfileForAdHoc() async throws {
        let path = Self.ipa("appstore")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "ad-hoc"])
        #expect(
            result.step("gate")?.message == "'\(path)': \(Self.profile) (profile 'Demo App Store') has no ProvisionedDevices, expected the testers' devices for channel 'ad-hoc'")
    }

    @Test func rejectsADevelopmentProfileForTheAppStoreAndEnterprise() async throws {
        let path = Self.ipa("wildcard")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "app-store"])
        let label = "'\(path)': \(Self.profile) (profile 'Team Development')"
        #expect(
            result.step("gate")?.message == """
                - \(label) has ProvisionedDevices (2), expected none for channel 'app-store' (it is an ad-hoc or development profile)
                - \(label) has get-task-allow true, expected false for channel 'app-store'
                """)
        let enterprise = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "enterprise"])
        #expect(enterprise.step("gate")?.message == "\(label) has no ProvisionsAllDevices true, expected it for channel 'enterprise'")
        let adhoc = try await GatePipelines.runGate("gate.ipa", ["ipa": Self.ipa("adhoc"), "channel": "development"])
        #expect(adhoc.step("gate")?.message == "'\(Self.ipa("adhoc"))': \(Self.profile) (profile 'Demo AdHoc') has get-task-allow false, expected true for channel 'development'")
    }

    @Test func rejectsAnExpiredProfileAgainstTheRunsClock() async throws {
        let path = Self.ipa("expired")
        // The tests' clock is 2014-10-22T06:01:18Z; the profile expired on 2014-01-01.
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "app-store"])
        #expect(result.step("gate")?.message == "'\(path)': \(Self.profile) (profile 'Demo App Store 2013') expired on 2014-01-01T00:00:00Z (now 2014-10-22T06:01:18Z)")
        // The same profile the day before it expired passes.
        let before = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "app-store"], now: Date(timeIntervalSince1970: 1_388_448_000))
        #expect(before.statuses == ["gate=ok"])
    }

    @Test func rejectsAProfileForAnotherApp() async throws {
        let path = Self.ipa("mismatched")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path])
        #expect(
            result.step("gate")?.message
                == "'\(path)': \(Self.profile) (profile 'Other App Store') has application-identifier 'ABCDE12345.com.example.other', which does not match bundle identifier 'com.example.demo' (expected 'ABCDE12345.com.example.demo' or a wildcard)"
        )
    }

    @Test func rejectsMissingKeysAndAMissingProfile() async throws {
        let path = Self.ipa("missing-keys")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "ad-hoc"])
        #expect(
            result.step("gate")?.message == """
                - '\(path)': \(Self.info) has no 'CFBundleVersion'
                - '\(path)': \(Self.info) has no 'MinimumOSVersion'
                - '\(path)' has no \(Self.profile), expected a provisioning profile for channel 'ad-hoc'
                """)
        let optional = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "require_profile": false])
        #expect(
            optional.step("gate")?.message == """
                - '\(path)': \(Self.info) has no 'CFBundleVersion'
                - '\(path)': \(Self.info) has no 'MinimumOSVersion'
                """)
    }

    @Test func rejectsAVersionBuildOrIdentifierOtherThanThePipelines() async throws {
        let path = Self.ipa("adhoc")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "version": "3.0.2", "build": "4321", "bundle_id": "com.example.app"])
        #expect(
            result.step("gate")?.message == """
                - '\(path)': \(Self.info) has CFBundleShortVersionString '3.0.1', expected '3.0.2'
                - '\(path)': \(Self.info) has CFBundleVersion '4322', expected '4321'
                - '\(path)': \(Self.info) has CFBundleIdentifier 'com.example.demo', expected 'com.example.app'
                """)
    }

    @Test func rejectsAFileThatIsNotAnIpa() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let path = try GatePipelines.write("not a zip", "Demo.ipa", in: directory)
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path])
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.step("gate")?.message?.hasPrefix("'\(path)' is not a readable ipa: ") == true)
        let zip = try await GatePipelines.output(["zip", "-q", "empty.ipa", "Demo.ipa"], in: directory)
        #expect(zip.isEmpty)
        let empty = try await GatePipelines.runGate("gate.ipa", ["ipa": directory + "/empty.ipa"])
        #expect(empty.step("gate")?.message == "'\(directory)/empty.ipa' has no Payload/*.app/Info.plist")
    }

    @Test func missingIpaFailsPreflightAndBadOptionsAreRejected() async throws {
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": "/nonexistent/Demo.ipa"])
        #expect(result.step("gate")?.message == "option 'ipa': no such file or directory '/nonexistent/Demo.ipa'")
        #expect {
            try decodeOptions(IPAGateStep.Options.self, #"{"ipa": "a.ipa", "channel": "appstore"}"#)
        } throws: { ($0 as? OptionsDecoder.Failure)?.message == "'appstore' is not one of app-store, ad-hoc, development, enterprise" }
    }

    @Test func fixtureProfilesAreDERSignedData() throws {
        // ContentInfo SEQUENCE, then the pkcs7-signedData OID 1.2.840.113549.1.7.2, as in Apple's profiles.
        let signedData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        for name in ["adhoc", "appstore", "expired", "mismatched", "wildcard"] {
            let reader = try ZipReader(path: Self.ipa(name))
            var profile: [UInt8] = []
            while let entry = try reader.next() {
                if entry.path == Self.profile { profile = try reader.read(upTo: 1 << 16) }
            }
            #expect(profile.first == 0x30, "\(name)")
            #expect(Array(profile[4..<15]) == signedData, "\(name)")
            #expect(ProvisioningProfile.propertyList(in: Data(profile)) != nil, "\(name)")
        }
    }

    @Test func readsAProfileSignedAsStreamedBER() async throws {
        // openssl cms -stream: indefinite lengths, the plist split into 4 KiB OCTET STRING chunks.
        let path = Self.ipa("streamed")
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "app-store", "version": "3.0.1"])
        #expect(result.statuses == ["gate=ok"])
        #expect(result.step("gate")?.outputs["profile_name"] == .string("Demo App Store Streamed"))
        let adhoc = try await GatePipelines.runGate("gate.ipa", ["ipa": path, "channel": "ad-hoc"])
        #expect(
            adhoc.step("gate")?.message
                == "'\(path)': \(Self.profile) (profile 'Demo App Store Streamed') has no ProvisionedDevices, expected the testers' devices for channel 'ad-hoc'")
    }

    @Test func dryRunsReallyCheckTheIpa() async throws {
        let path = Self.ipa("expired")
        let text = GatePipelines.text([["id": "gate", "uses": "gate.ipa", "gate": true, "with": ["ipa": path]]])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.dryRun = true })
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.exitCode == 2)
    }

    @Test func extractsThePlistFromTheCMSEnvelope() throws {
        var data = Data([0x30, 0x82, 0x01, 0x00, 0x06, 0x09])
        data += Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8)
        data += Data([0xA0, 0x82, 0x3C, 0x00])
        #expect(ProvisioningProfile.propertyList(in: data) == Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8))
        #expect(ProvisioningProfile.propertyList(in: Data([0x30, 0x00])) == nil)
    }
}

@Suite struct CMSSignedDataTests {
    static let plist = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8)

    /// A DER length.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    static func der(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    static func ber(_ tag: UInt8, _ children: [[UInt8]]) -> [UInt8] { [tag, 0x80] + children.flatMap { $0 } + [0, 0] }

    static let oid: [UInt8] = der(0x06, CMSSignedData.signedDataOID)
    static let dataOID: [UInt8] = der(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])
    static let version: [UInt8] = der(0x02, [1])
    static let digests: [UInt8] = der(0x31, der(0x30, der(0x06, [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])))
    static let signerInfos: [UInt8] = der(0x31, [])

    @Test func readsDERContent() throws {
        let encapsulated = Self.der(0x30, Self.dataOID + Self.der(0xA0, Self.der(0x04, Self.plist)))
        let message = Self.der(0x30, Self.oid + Self.der(0xA0, Self.der(0x30, Self.version + Self.digests + encapsulated + Self.signerInfos)))
        #expect(try CMSSignedData.content(of: message) == Self.plist)
    }

    @Test func readsStreamedBERContentInChunks() throws {
        let chunks = [Self.der(0x04, Array(Self.plist[0..<10])), Self.der(0x04, Array(Self.plist[10...]))]
        let encapsulated = Self.ber(0x30, [Self.dataOID, Self.ber(0xA0, [Self.ber(0x24, chunks)])])
        let message = Self.ber(0x30, [Self.oid, Self.ber(0xA0, [Self.ber(0x30, [Self.version, Self.digests, encapsulated, Self.signerInfos])])])
        #expect(try CMSSignedData.content(of: message) == Self.plist)
        // The byte search alone would find the plist split by a chunk header; the gate reads it whole.
        #expect(ProvisioningProfile.propertyList(in: Data(message)) == Data(Self.plist))
    }

    @Test func rejectsOtherMessages() {
        #expect(throws: CMSSignedData.Failure.unexpected("not a CMS SignedData message")) {
            try CMSSignedData.content(of: Self.der(0x30, Self.dataOID + Self.der(0xA0, [])))
        }
        #expect(throws: CMSSignedData.Failure.malformed("an element runs past the end of the message")) {
            try CMSSignedData.content(of: [0x30, 0x81, 200, 0x06])
        }
        let detached = Self.der(0x30, Self.oid + Self.der(0xA0, Self.der(0x30, Self.version + Self.digests + Self.der(0x30, Self.dataOID) + Self.signerInfos)))
        #expect(throws: CMSSignedData.Failure.unexpected("the signature is detached: the message carries no content")) {
            try CMSSignedData.content(of: detached)
        }
    }

    @Test func rejectsAProfileThatIsNotSigned() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("<plist>", "Payload/Demo.app/Info.plist", in: directory)
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("IPA/missing-keys.ipa").path, toPath: directory + "/Demo.ipa")
        try FileManager.default.removeItem(atPath: directory + "/Payload/Demo.app/Info.plist")
        try GatePipelines.write("garbage", "Payload/Demo.app/embedded.mobileprovision", in: directory)
        _ = try await GatePipelines.output(["zip", "-q", "Demo.ipa", "Payload/Demo.app/embedded.mobileprovision"], in: directory)
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": directory + "/Demo.ipa", "require_profile": true])
        #expect(
            result.step("gate")?.message == """
                - '\(directory)/Demo.ipa': Payload/Demo.app/Info.plist has no 'CFBundleVersion'
                - '\(directory)/Demo.ipa': Payload/Demo.app/Info.plist has no 'MinimumOSVersion'
                - '\(directory)/Demo.ipa': Payload/Demo.app/embedded.mobileprovision is not a signed provisioning profile: not a CMS message: it does not start with a SEQUENCE
                """)
    }

    /// App Store Connect takes at most four groups (Pocket Casts' `7.75.0.3` builds reach TestFlight); a fifth is
    /// refused, so `appstore.upload` says so in preflight, from the .ipa, before any request.
    @Test func anUploadOfABuildNumberAppleRefusesFailsInPreflight() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.demo</string>
            <key>CFBundleShortVersionString</key><string>4.54</string>
            <key>CFBundleVersion</key><string>4.54.0.1.2</string>
            <key>MinimumOSVersion</key><string>15.0</string>
            </dict></plist>
            """, "Payload/Demo.app/Info.plist", in: directory)
        _ = try await GatePipelines.output(["zip", "-q", "Demo.ipa", "Payload/Demo.app/Info.plist"], in: directory)
        let path = directory + "/Demo.ipa"
        let step = try AppStoreConnectStepsTests.upload { $0.ipa = path }
        await #expect(
            throws: StepError.failed(
                "the .ipa's CFBundleVersion '4.54.0.1.2' is not one App Store Connect accepts: one to four period-separated integers, such as 4321, 1.4.2 or 7.75.0.3"
            )
        ) {
            try await step.identity(ofIPA: path)
        }
    }
}
