import Foundation
import Testing

@testable import ReleaseApple
@testable import ReleaseArtifacts
@testable import ReleaseSupport

/// The command lines the Apple steps run and the readers of what the tools print.
@Suite struct AppleCommandTests {
    @Test func archiveCommandLineIsExact() {
        let archive = XcodebuildCommand.Archive(
            container: .workspace("Demo.xcworkspace"), scheme: "Demo", configuration: "AdHoc", archivePath: "/b/Demo.xcarchive",
            derivedDataPath: "/b/dd", resultBundlePath: "/b/Demo.xcresult", xcconfig: "Release.xcconfig", allowProvisioningUpdates: true,
            buildSettings: ["OTHER_CODE_SIGN_FLAGS": "--keychain /k", "DEVELOPMENT_TEAM": "ABCDE12345"])
        #expect(
            archive.arguments == [
                "xcodebuild", "-workspace", "Demo.xcworkspace", "-scheme", "Demo", "-configuration", "AdHoc",
                "-destination", "generic/platform=iOS", "-archivePath", "/b/Demo.xcarchive", "-derivedDataPath", "/b/dd",
                "-resultBundlePath", "/b/Demo.xcresult", "-xcconfig", "Release.xcconfig", "-allowProvisioningUpdates", "archive",
                "DEVELOPMENT_TEAM=ABCDE12345", "OTHER_CODE_SIGN_FLAGS=--keychain /k",
            ])
        let minimal = XcodebuildCommand.Archive(container: .project("Demo.xcodeproj"), scheme: "Demo", configuration: "Release", archivePath: "/a.xcarchive")
        #expect(
            minimal.arguments == [
                "xcodebuild", "-project", "Demo.xcodeproj", "-scheme", "Demo", "-configuration", "Release",
                "-destination", "generic/platform=iOS", "-archivePath", "/a.xcarchive", "archive",
            ])
        #expect(
            XcodebuildCommand.exportArchive(archivePath: "/a.xcarchive", exportPath: "/out", optionsPlist: "/out/E.plist")
                == ["xcodebuild", "-exportArchive", "-archivePath", "/a.xcarchive", "-exportPath", "/out", "-exportOptionsPlist", "/out/E.plist"])
    }

    @Test func securityCommandLinesAreExact() {
        #expect(SecurityCommand.createKeychain("/k.keychain-db", password: "pw") == ["security", "create-keychain", "-p", "pw", "/k.keychain-db"])
        #expect(SecurityCommand.setKeychainSettings("/k") == ["security", "set-keychain-settings", "/k"])
        #expect(SecurityCommand.unlockKeychain("/k", password: "pw") == ["security", "unlock-keychain", "-p", "pw", "/k"])
        #expect(
            SecurityCommand.importCertificate("/c.p12", keychain: "/k", password: "p12") == [
                "security", "import", "/c.p12", "-k", "/k", "-f", "pkcs12", "-P", "p12", "-T", "/usr/bin/codesign", "-T", "/usr/bin/security",
            ])
        #expect(SecurityCommand.setKeyPartitionList("/k", password: "pw") == ["security", "set-key-partition-list", "-S", "apple-tool:,apple:,codesign:", "-s", "-k", "pw", "/k"])
        #expect(SecurityCommand.setSearchList(["/k", "/login"]) == ["security", "list-keychains", "-d", "user", "-s", "/k", "/login"])
        #expect(SecurityCommand.findIdentities("/k") == ["security", "find-identity", "-v", "-p", "codesigning", "/k"])
        #expect(SecurityCommand.deleteKeychain("/k") == ["security", "delete-keychain", "/k"])
    }

    @Test func searchListAndIdentitiesAreReadAsPrinted() {
        let list = "    \"/Users/ci/Library/Keychains/login.keychain-db\"\n    \"/Library/Keychains/System.keychain\"\n"
        #expect(SecurityCommand.searchList(from: list) == ["/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"])
        let identities = """
              1) 3C1E5BB8D0AE2F1B5D3C9A7E6F4B2D1C0A9E8F7D "Apple Distribution: Demo (TEAM123456)"
              2) 0000000000000000000000000000000000000001 "Apple Development: Ann (XYZ)"
                 2 valid identities found
            """
        #expect(
            SigningIdentity.parse(identities) == [
                SigningIdentity(sha1: "3C1E5BB8D0AE2F1B5D3C9A7E6F4B2D1C0A9E8F7D", name: "Apple Distribution: Demo (TEAM123456)"),
                SigningIdentity(sha1: "0000000000000000000000000000000000000001", name: "Apple Development: Ann (XYZ)"),
            ])
        #expect(SigningIdentity.parse("     0 valid identities found\n").isEmpty)
    }

    @Test func altoolCommandKeepsThePasswordOffTheCommandLine() {
        #expect(
            AltoolCommand.validate(ipa: "/a.ipa", platform: "ios", authentication: .apiKey(keyID: "K1", issuerID: "I1"))
                == ["xcrun", "altool", "--validate-app", "-f", "/a.ipa", "-t", "ios", "--apiKey", "K1", "--apiIssuer", "I1"])
        #expect(
            AltoolCommand.validate(ipa: "/a.ipa", platform: "ios", authentication: .password(username: "me@example.com", environmentVariable: "PW"))
                == ["xcrun", "altool", "--validate-app", "-f", "/a.ipa", "-t", "ios", "-u", "me@example.com", "-p", "@env:PW"])
    }

    @Test func altoolErrorsAreKeptVerbatimOnePerLine() {
        let output = [
            "2014-10-22 15:01:18.123 altool[4321:507] *** Error: Error Domain=ITunesConnectionOperationErrorDomain Code=1350 \"Unable to validate your application.\"",
            "some progress",
            "2014-10-22 15:01:18.200 altool[4321:507] *** Error: Exception while launching iTunesTransporter: Code=50 -[ITunesSoftwareServiceValidator _terminateWithStatus:]",
            "   ERROR ITMS-90161: \"Invalid Provisioning Profile.\"",
        ]
        #expect(
            AltoolCommand.errors(in: output) == [
                "*** Error: Error Domain=ITunesConnectionOperationErrorDomain Code=1350 \"Unable to validate your application.\"",
                "*** Error: Exception while launching iTunesTransporter: Code=50 -[ITunesSoftwareServiceValidator _terminateWithStatus:]",
                "ERROR ITMS-90161: \"Invalid Provisioning Profile.\"",
            ])
        #expect(AltoolCommand.errors(in: ["No errors validating archive at 'a.ipa'."]).isEmpty)
    }

    @Test func xcodeVersionIsReadFromXcodebuild() {
        #expect(XcodeVersion(versionOutput: "Xcode 16.2\nBuild version 16C5032a") == XcodeVersion(major: 16, minor: 2, build: "16C5032a"))
        #expect(XcodeVersion(versionOutput: "Xcode 15.4\nBuild version 15F31d")?.description == "15.4")
        #expect(XcodeVersion(versionOutput: "xcode-select: error: tool 'xcodebuild' requires Xcode") == nil)
    }

    @Test(arguments: [
        ("16.2", ExportMethod.appStore, "app-store-connect"), ("16.2", .appStoreConnect, "app-store-connect"),
        ("16.2", .adHoc, "release-testing"), ("16.2", .development, "debugging"), ("16.2", .enterprise, "enterprise"),
        ("15.4", .appStoreConnect, "app-store"), ("15.4", .releaseTesting, "ad-hoc"), ("15.4", .debugging, "development"),
        ("15.4", .adHoc, "ad-hoc"), ("15.4", .developerID, "developer-id"),
    ])
    func exportOptionsPlistParsesBackWithTheMethodTheInstalledXcodeExpects(xcode: String, method: ExportMethod, written: String) throws {
        let version = try #require(XcodeVersion(versionOutput: "Xcode \(xcode)\nBuild version X"))
        let options = ExportOptions(
            method: method, teamID: "ABCDE12345", signingStyle: "manual",
            provisioningProfiles: ["com.example.demo": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"], uploadSymbols: false)
        let data = try options.propertyList(for: version)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("<?xml"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["method"] as? String == written)
        #expect(plist["teamID"] as? String == "ABCDE12345")
        #expect(plist["signingStyle"] as? String == "manual")
        #expect(plist["manageAppVersionAndBuildNumber"] as? Bool == false)
        #expect(plist["provisioningProfiles"] as? [String: String] == ["com.example.demo": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"])
        #expect((plist["uploadSymbols"] as? Bool) == (method.profileType == .appStore ? false : nil))
        #expect((plist["generateAppStoreInformation"] as? Bool) == (method.profileType == .appStore ? true : nil))
    }

    @Test func xcodebuildOutputIsCondensedToWhatMatters() {
        var condenser = XcodebuildLogCondenser()
        let lines = [
            "CompileC /dd/Objects-normal/arm64/main.o /src/Demo/main.c normal arm64 c com.apple.compilers.llvm.clang.1_0.compiler (in target 'Demo' from project 'Demo')",
            "    cd /src",
            "SwiftCompile normal arm64 Compiling\\ AppDelegate.swift /src/Demo/AppDelegate.swift (in target 'Demo' from project 'Demo')",
            "/src/Demo/main.c:7:9: warning: unused variable 'build' [-Wunused-variable]",
            "Ld /dd/Demo.app/Demo normal (in target 'Demo' from project 'Demo')",
            "CodeSign /dd/Demo.app (in target 'Demo' from project 'Demo')",
            "error: No profiles for 'com.example.demo' were found",
            "** ARCHIVE FAILED **",
            "The following build commands failed:",
            "\tCodeSign /dd/Demo.app (in target 'Demo' from project 'Demo')",
            "(1 failure)",
        ]
        let condensed = lines.compactMap { condenser.condense($0) }
        #expect(
            condensed == [
                .step("[Demo] Compiling main.c"),
                .step("[Demo] Compiling AppDelegate.swift"),
                .issue(XcodebuildIssue(severity: .warning, file: "/src/Demo/main.c", line: 7, column: 9, message: "unused variable 'build' [-Wunused-variable]")),
                .step("[Demo] Linking Demo"),
                .step("[Demo] Signing Demo.app"),
                .issue(XcodebuildIssue(severity: .error, message: "No profiles for 'com.example.demo' were found")),
                .step("** ARCHIVE FAILED **"),
                .step("The following build commands failed:"),
                .step("CodeSign /dd/Demo.app (in target 'Demo' from project 'Demo')"),
            ])
    }

    @Test func issuesBecomeGitHubAnnotations() throws {
        let issue = try #require(XcodebuildIssue(line: "/src/Demo/main.c:12:5: error: use of undeclared identifier 'x'"))
        #expect(issue.annotation.line == "::error file=/src/Demo/main.c,line=12,col=5::use of undeclared identifier 'x'")
        #expect(issue.summary == "main.c:12:5: error: use of undeclared identifier 'x'")
        #expect(XcodebuildIssue(line: "note: Building targets in dependency order") == nil)
        #expect(XcodebuildIssue(line: "    int build = 4146; // warning: none") == nil)
    }

    @Test func profilesAreInstalledWhereCurrentAndOlderXcodeLook() {
        #expect(
            ProvisioningProfileLocations.folders(home: "/Users/ci/") == [
                "/Users/ci/Library/Developer/Xcode/UserData/Provisioning Profiles",
                "/Users/ci/Library/MobileDevice/Provisioning Profiles",
            ])
    }

    @Test func provisioningProfilesAreReadFromTheirEnvelope() throws {
        let folder = FixturePaths.root.appendingPathComponent("Fixtures/Signing").path
        let release = try ProvisioningProfile(contentsOf: folder + "/release.mobileprovision")
        #expect(release.uuid == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        #expect(release.name == "Demo App Store")
        #expect(release.teamID == "ABCDE12345")
        #expect(release.applicationIdentifier == "ABCDE12345.com.example.demo")
        #expect(release.type == .appStore)
        #expect(release.expirationDate.map { Timestamp.iso8601($0) } == "2030-01-01T00:00:00Z")
        #expect(release.matches(bundleID: "com.example.demo") && !release.matches(bundleID: "com.example.demo.widget"))
        let adhoc = try ProvisioningProfile(contentsOf: folder + "/adhoc.mobileprovision")
        #expect(adhoc.type == .adHoc)
        #expect(adhoc.devices == ["00008030-001A2B3C4D5E6F70", "00008101-000A1B2C3D4E5F60"])
        #expect(throws: ProvisioningProfile.Failure.self) { try ProvisioningProfile(data: Data("not a profile".utf8)) }
    }
}
