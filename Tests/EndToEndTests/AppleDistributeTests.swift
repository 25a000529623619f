import Foundation
import Rehearsal
import ReleaseAppStoreConnect
import Testing

/// `release run Pipelines/distribute.json --os macos` on Linux with the fake `security`, `xcodebuild` and `xcrun`
/// (Fixtures/FakeTools) first on PATH: signing, archive, export, validation and packaging end to end, and the
/// machine left as it was (no keychain, no profile, the same search list) however the run ends.
@Suite struct AppleDistributeTests {
    static let fakeTools = ReleaseBinary.root.appendingPathComponent("Fixtures/FakeTools").path
    static let signing = ReleaseBinary.root.appendingPathComponent("Fixtures/Signing").path
    static let searchList = "[\"/Users/ci/Library/Keychains/login.keychain-db\", \"/Library/Keychains/System.keychain\"]"

    /// A demo checkout with Signing/, a fake home and the fakes' state; the environment a run needs.
    struct Machine {
        var directory: String
        var home: String
        var state: String
        var environment: [String: String]
        /// The App Store Connect the release profile uploads to (`APP_STORE_CONNECT_API_URL`).
        var appStore: LocalAppStoreConnectServer

        var log: [[String: Any]] {
            let text = (try? String(contentsOfFile: state + "/calls.jsonl", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        func calls(_ tool: String) -> [[String]] {
            log.filter { $0["tool"] as? String == tool }.compactMap { $0["argv"] as? [String] }
        }

        var installedProfiles: [String] {
            let enumerator = FileManager.default.enumerator(atPath: home)
            var found: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".mobileprovision") { found.append(path) }
            }
            return found
        }

        var keychains: String { (try? String(contentsOfFile: state + "/keychains.json", encoding: .utf8)) ?? "{}" }
        var searchList: String { (try? String(contentsOfFile: state + "/search-list.json", encoding: .utf8)) ?? "" }
    }

    static func machine(branch: String = "release/3.0.1", extra: [String: String] = [:]) throws -> Machine {
        let directory = try ReleaseBinary.prepareDemo()
        try ReleaseBinary.git(["checkout", "-q", "-B", branch], in: directory)
        try FileManager.default.createDirectory(atPath: directory + "/Signing", withIntermediateDirectories: true)
        for file in ["Distribution.p12", "release.mobileprovision", "adhoc.mobileprovision"] {
            try FileManager.default.copyItem(atPath: signing + "/" + file, toPath: directory + "/Signing/" + file)
        }
        let home = ReleaseBinary.temporaryDirectory()
        let state = ReleaseBinary.temporaryDirectory()
        try searchList.write(toFile: state + "/search-list.json", atomically: true, encoding: .utf8)
        let key = try String(contentsOfFile: signing + "/AuthKey_DEMO123456.p8", encoding: .utf8)
        var environment = [
            "PATH": fakeTools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": home, "RELEASE_FAKE_STATE": state, "RELEASE_FAKE_LOG": state + "/calls.jsonl",
            "RELEASE_FAKE_P12_PASSWORD": "demo-p12-password", "CERTIFICATE_PASSWORD": "demo-p12-password",
            "APP_STORE_CONNECT_KEY_ID": "DEMO123456", "APP_STORE_CONNECT_ISSUER_ID": "69a6de70-0000-47e3-e053-5b8c7c11a4d1",
            "APP_STORE_CONNECT_KEY": key,
            // The distribution certificate's private key, from which the release profile's signing.sync finds or makes
            // the certificate and profiles on App Store Connect.
            "CERTIFICATE_KEY": try String(contentsOfFile: signing + "/CertificateKey.pem", encoding: .utf8),
        ]
        // A local App Store Connect that knows the demo app and its TestFlight group, and accepts the demo key.
        let appStore = try LocalAppStoreConnectServer(
            configuration: .init(
                storageDirectory: ReleaseBinary.temporaryDirectory(),
                keys: [
                    .init(
                        keyID: "DEMO123456", issuerID: "69a6de70-0000-47e3-e053-5b8c7c11a4d1",
                        publicKeyPEM: try AppStoreConnectKey(id: "DEMO123456", issuer: "69a6de70-0000-47e3-e053-5b8c7c11a4d1", pem: key).publicKeyPEM)
                ],
                processingPolls: 0))
        appStore.addApp(bundleID: "com.example.demo", name: "Demo")
        appStore.addBetaGroup(bundleID: "com.example.demo", name: "QA")
        environment["APP_STORE_CONNECT_API_URL"] = try appStore.start()
        environment.merge(extra) { _, new in new }
        return Machine(directory: directory, home: home, state: state, environment: environment, appStore: appStore)
    }

    /// Nothing left behind: no keychain known to `security`, no keychain file, no profile, the search list as it began.
    func expectClean(_ machine: Machine, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(machine.keychains.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "") == "{}", sourceLocation: sourceLocation)
        #expect(machine.installedProfiles.isEmpty, "\(machine.installedProfiles)", sourceLocation: sourceLocation)
        let list = try JSONSerialization.jsonObject(with: Data(machine.searchList.utf8)) as? [String]
        #expect(list == ["/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"], sourceLocation: sourceLocation)
        for path in machine.calls("security").filter({ $0.first == "create-keychain" }).compactMap(\.last) {
            #expect(!FileManager.default.fileExists(atPath: path), "keychain file '\(path)' left", sourceLocation: sourceLocation)
        }
    }

    /// A local GitHub for `publish`, and the variables that point the pipeline at it.
    static func github() throws -> (LocalGitHubServer, [String: String]) {
        let token = "ghp_appleEndToEnd0123456789"
        let server = try LocalGitHubServer(configuration: .init(storageDirectory: ReleaseBinary.temporaryDirectory(), token: token))
        return (server, ["GITHUB_API_URL": try server.start(), "GITHUB_TOKEN": token])
    }

    /// A recording server for Slack's webhook, and the variable that points the pipeline at it.
    static func slack() throws -> (RecordingServer, [String: String]) {
        let server = RecordingServer(configuration: .init(body: "ok", contentType: "text/plain"))
        return (server, ["SLACK_WEBHOOK_URL": try server.start() + "/services/T000/B000/XXXXSECRET"])
    }

    /// The messages Slack received, as text.
    static func messages(_ server: RecordingServer) -> [String] {
        server.requests.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func distributeSignsArchivesExportsValidatesAndPackagesAndLeavesNothingBehind() throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        let (slack, webhook) = try Self.slack()
        defer { slack.stop() }
        let machine = try Self.machine(extra: github.merging(webhook) { _, new in new })
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for step in [
            "signing", "archive", "export", "check-dsyms", "dsyms", "zip", "check-ipa", "validate", "itmsp", "publish",
            "upload", "testflight", "submit",
        ] {
            #expect(outcome.stderr.contains("✔ \(step)"), "\(step): \(outcome.stderr)")
        }
        // The exported .ipa went to App Store Connect through the API and on to the QA group, with the notes.
        let summary = machine.appStore.summary()
        #expect(summary.contains { $0.hasPrefix("upload com.example.demo 3.0.0 (4146) IOS COMPLETE  Demo.ipa") && $0.contains("build VALID") }, "\(summary)")
        #expect(summary.contains("group QA (com.example.demo): 3.0.0 (4146)"), "\(summary)")
        #expect(machine.appStore.uploadedByteCount() > 0)
        // Xcode's AppStoreInfo.plist (generateAppStoreInformation) went with it as the asset description, and the build
        // on to App Review with the notes as What's New.
        #expect(plistHasAppStoreInformation(machine))
        #expect(summary.contains { $0.hasPrefix("upload com.example.demo 3.0.0 (4146)") && $0.contains("  AppStoreInfo.plist ") }, "\(summary)")
        #expect(
            summary.contains("app store version com.example.demo 3.0.0 IOS WAITING_FOR_REVIEW  build 3.0.0 (4146)  release AFTER_APPROVAL  phased INACTIVE"),
            "\(summary)")
        #expect(summary.contains("review submission IOS WAITING_FOR_REVIEW: 3.0.0"), "\(summary)")
        // The release profile signs with what signing.sync made on the empty account: one certificate from the
        // private key, the app's and the widget's bundle ids and App Store profiles. The key is in no output.
        let writes = machine.appStore.exchanges().filter { $0.method != "GET" }.map { "\($0.method) \($0.target.split(separator: "?")[0])" }
        #expect(writes.prefix(5) == ["POST /v1/certificates", "POST /v1/bundleIds", "POST /v1/profiles", "POST /v1/bundleIds", "POST /v1/profiles"], "\(writes)")
        #expect(!SigningSyncCommandTests.keyLines.isEmpty && !SigningSyncCommandTests.keyLines.contains { outcome.stderr.contains($0) })
        // The keychain: created, unlocked, key and certificate imported for codesign, partition list, first in the user's list.
        let security = machine.calls("security")
        let create = try #require(security.first { $0.first == "create-keychain" })
        let keychain = try #require(create.last)
        let password = create[2]
        #expect(password.count == 64 && !outcome.stderr.contains(password), "the random keychain password is never printed")
        #expect(!outcome.stderr.contains("demo-p12-password"))
        #expect(security.contains(["set-key-partition-list", "-S", "apple-tool:,apple:,codesign:", "-s", "-k", password, keychain]))
        #expect(security.contains(["list-keychains", "-d", "user", "-s", keychain, "/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"]))
        #expect(security.last == ["list-keychains", "-d", "user", "-s", "/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"])
        // xcodebuild: the archive command, the version asked, the export with the generated plist.
        let xcodebuild = machine.calls("xcodebuild")
        // The demo signs automatically: on release the archive signs manually with what signing.sync installed (style,
        // identity and its profile_name together); -allowProvisioningUpdates and the key (in a private temporary file)
        // are there for the adhoc profile's automatic signing and change nothing for manual signing.
        let archive = try #require(xcodebuild.first)
        #expect(
            Array(archive.prefix(11)) == [
                "-project", "Fixtures/DemoApp/Demo.xcodeproj", "-scheme", "Demo", "-configuration", "Release",
                "-destination", "generic/platform=iOS", "-archivePath", machine.directory + "/build/Demo.xcarchive", "-allowProvisioningUpdates",
            ], "\(archive)")
        #expect(archive.count == 23 && archive[11] == "-authenticationKeyPath" && archive[12].hasSuffix("/AuthKey_DEMO123456.p8"), "\(archive)")
        #expect(
            Array(archive.suffix(10)) == [
                "-authenticationKeyID", "DEMO123456", "-authenticationKeyIssuerID", "69a6de70-0000-47e3-e053-5b8c7c11a4d1",
                "archive", "CODE_SIGN_IDENTITY=Apple Distribution", "CODE_SIGN_STYLE=Manual", "DEVELOPMENT_TEAM=ABCDE12345",
                "OTHER_CODE_SIGN_FLAGS=--keychain \(keychain)", "PROVISIONING_PROFILE_SPECIFIER=release app-store $(PRODUCT_BUNDLE_IDENTIFIER)",
            ], "\(archive)")
        #expect(xcodebuild.contains(["-version"]))
        let plistData = try Data(contentsOf: URL(fileURLWithPath: machine.directory + "/build/export/ExportOptions.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        #expect(plist["method"] as? String == "app-store-connect")
        let mapping = try #require(plist["provisioningProfiles"] as? [String: String])
        #expect(Set(mapping.keys) == ["com.example.demo", "com.example.demo.widget"])
        #expect(outcome.stderr.contains("created profile 'release app-store com.example.demo' (\(mapping["com.example.demo"] ?? "?"))"), "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: machine.directory + "/build/export/Demo.ipa"))
        #expect(FileManager.default.fileExists(atPath: machine.directory + "/build/Demo.xcodebuild.log"))
        #expect(outcome.stderr.contains("[Demo] Linking Demo"))
        #expect(!outcome.stderr.contains("IntermediateBuildFilesPath"), "xcodebuild's output is condensed")
        // altool found the key in the private folder, which is gone now.
        let altool = try #require(machine.log.first { $0["tool"] as? String == "xcrun" })
        let keys = try #require((altool["env"] as? [String: String])?["API_PRIVATE_KEYS_DIR"])
        #expect(keys.hasSuffix("/private_keys") && !FileManager.default.fileExists(atPath: keys))
        #expect(server.summary().joined(separator: "\n").contains("Demo-3.0.0-4146.xcarchive.zip"), "\(server.summary())")
        // The release notes follow the seed's body; Slack hears of the success once, with the release's page.
        let release = try #require(server.releases().first)
        #expect(release.body?.hasPrefix("Build: 3.0.0 (4146)\nUploaded: ") == true)
        #expect(release.body?.contains("\n\n- ") == true, "\(release.body ?? "")")
        let messages = Self.messages(slack)
        #expect(messages.count == 1)
        #expect(messages.first?.contains(#""text":"distribute 3.0.0 (4146) is out (release)""#) == true, "\(messages)")
        let page = "\(github["GITHUB_API_URL"] ?? "")/owner/client-releases/releases/tag/\(release.tagName)"
        #expect(messages.first?.contains("<\(page)|GitHub Release>") == true, "\(messages)")
        #expect(outcome.stderr.contains("○ tell-failure skipped: not sent: the outcome is success and 'on' is failure"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("XXXXSECRET"))
        try expectClean(machine)
    }

    func plistHasAppStoreInformation(_ machine: Machine) -> Bool {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: machine.directory + "/build/export/ExportOptions.plist"))) ?? Data()
        let plist = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
        return plist?["generateAppStoreInformation"] as? Bool == true
            && FileManager.default.fileExists(atPath: machine.directory + "/build/export/AppStoreInfo.plist")
    }

    /// An export without `profiles` in a pipeline with a `signing.profile` step gets the profiles it installed:
    /// distribute.json's export names none, and its ad hoc build's plist maps the app's bundle identifier to the
    /// installed ad hoc profile, though the pipeline's other installer (signing.sync, for the release profile) is
    /// skipped.
    @Test func anExportWithoutProfilesUsesTheProfilesTheRunInstalled() throws {
        let machine = try Self.machine(branch: "develop")
        let text = try String(contentsOfFile: machine.directory + "/Pipelines/distribute.json", encoding: .utf8)
        #expect(!text.contains(#""profiles": "${steps."#))

        let outcome = try ReleaseBinary.run(
            ["run", "distribute", "--os", "macos", "--only", "export"], in: machine.directory,
            environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("○ signing skipped: when: (profile is 'release') and (os is 'macos') is false"), "\(outcome.stderr)")
        let plistData = try Data(contentsOf: URL(fileURLWithPath: machine.directory + "/build/export/ExportOptions.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        #expect(plist["method"] as? String == "release-testing")
        #expect(plist["signingStyle"] as? String == "manual")
        #expect(plist["provisioningProfiles"] as? [String: String] == ["com.example.demo": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"])
    }

    @Test func aFailingArchiveStillRemovesKeychainAndProfiles() throws {
        let (slack, webhook) = try Self.slack()
        defer { slack.stop() }
        let machine = try Self.machine(branch: "develop", extra: webhook.merging(["RELEASE_FAKE_XCODEBUILD_FAIL": "1"]) { _, new in new })
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        // Slack hears of the failure, naming the step, though everything after the archive was blocked.
        let messages = Self.messages(slack)
        #expect(messages.count == 1)
        #expect(messages.first?.contains(#"*Failed step:* `archive`: "#) == true, "\(messages)")
        #expect(messages.first?.contains(#""text":"distribute 3.0.0 (4146) failed""#) == true, "\(messages)")
        #expect(outcome.stderr.contains("main.c:12:5: error: use of undeclared identifier 'demo_version'"))
        #expect(outcome.stderr.contains("exited with status 65"))
        #expect(FileManager.default.fileExists(atPath: machine.directory + "/build/Demo.xcodebuild.log"))
        try expectClean(machine)
    }

    @Test func anInterruptedArchiveStillRemovesKeychainAndProfiles() throws {
        let machine = try Self.machine(branch: "develop", extra: ["RELEASE_FAKE_XCODEBUILD_SLEEP": "30"])
        // Interrupted once xcodebuild is archiving (the fake records its call before it sleeps), not after a fixed wait.
        let process = try ReleaseBinary.start(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        let deadline = Date().addingTimeInterval(120)
        while !machine.calls("xcodebuild").contains(where: { $0.contains("archive") }), Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.interrupt()
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: machine.directory + "/stderr.txt", encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(machine.calls("security").contains { $0.first == "create-keychain" }, "the keychain existed before the interrupt")
        #expect(!machine.calls("xcodebuild").isEmpty)
        try expectClean(machine)
    }

    @Test func appleValidationErrorsAreShownVerbatimAndTheGateExits2() throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        let machine = try Self.machine(extra: github.merging(["RELEASE_FAKE_ALTOOL": "fail"]) { _, new in new })
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "- *** Error: Error Domain=ITunesConnectionOperationErrorDomain Code=1350 \"Unable to validate your application. The App Store is unavailable.\""),
            "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "- *** Error: Exception while launching iTunesTransporter: Transporter transfer failed. Error Domain=NSCocoaErrorDomain Code=50 \"The operation couldn't be completed.\" -[ITunesSoftwareServiceValidator _terminateWithStatus:]"
            ))
        #expect(!outcome.stderr.contains("✔ publish"))
        try expectClean(machine)
    }

    @Test(arguments: [
        ("expired.mobileprovision", "expired on 2014-01-01T00:00:00Z"),
        ("other.mobileprovision", "has application-identifier 'ABCDE12345.com.example.other', which covers none of"),
    ])
    func aBadProfileFailsPreflightBeforeAnythingRuns(profile: String, message: String) throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        // The ad hoc build signs with the team's files (the release build with signing.sync).
        let machine = try Self.machine(branch: "develop", extra: github)
        try FileManager.default.removeItem(atPath: machine.directory + "/Signing/adhoc.mobileprovision")
        try FileManager.default.copyItem(atPath: Self.signing + "/" + profile, toPath: machine.directory + "/Signing/adhoc.mobileprovision")
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(machine.calls("security").isEmpty && machine.calls("xcodebuild").isEmpty, "preflight stops the run before any tool runs")
        try expectClean(machine)
    }

    @Test func aDryRunOnLinuxShowsEveryCommandThatWouldRun() throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        let machine = try Self.machine(extra: github)
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos", "--dry-run"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for command in [
            "security create-keychain -p '<random>'", "security set-key-partition-list", "xcodebuild -project Fixtures/DemoApp/Demo.xcodeproj",
            "xcodebuild -exportArchive", "xcrun altool --validate-app",
        ] {
            #expect(outcome.stderr.contains(command), "\(command): \(outcome.stderr)")
        }
        #expect(machine.log.isEmpty, "a dry run runs none of the tools")
    }

    /// A folder holding only `git`, for a PATH without any Apple tool, on Linux and on a Mac alike (where /usr/bin has
    /// `xcodebuild` and `security`).
    static func pathWithOnlyGit() throws -> String {
        let folder = ReleaseBinary.temporaryDirectory()
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { String($0) + "/git" }
        guard let git = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/git", withDestinationPath: git)
        return folder
    }

    /// Issue 23 item 4: without Xcode (no fake tools either), `--dry-run --os macos` lists every `security`,
    /// `xcodebuild` and `xcrun` command a Mac would run, with its real arguments, warns that each needs Xcode, and
    /// succeeds; a real run there still fails in preflight, before anything changes.
    @Test func aDryRunWithoutXcodeShowsEveryCommandAMacWouldRunAndWarns() throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        var machine = try Self.machine(extra: github)
        machine.environment["PATH"] = try Self.pathWithOnlyGit()
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "macos", "--dry-run"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for command in [
            "security create-keychain -p '<random>'", "security import ", "security set-key-partition-list",
            "xcodebuild -project Fixtures/DemoApp/Demo.xcodeproj -scheme Demo -configuration Release -destination generic/platform=iOS",
            "xcodebuild -exportArchive -archivePath ", "xcrun altool --validate-app",
        ] {
            #expect(outcome.stderr.contains(command), "\(command): \(outcome.stderr)")
        }
        for (step, tool) in [("signing", "security"), ("archive", "xcodebuild"), ("export", "xcodebuild"), ("validate", "xcrun")] {
            let warning = "\(step) warning: needs Xcode: run on macOS ('\(tool)' is not on PATH here; its command is shown as a Mac would run it)\n"
            #expect(outcome.stderr.contains(warning), "\(warning)\(outcome.stderr)")
        }
        #expect(outcome.stderr.components(separatedBy: "needs Xcode: run on macOS").count - 1 == 4)
        #expect(!outcome.stderr.contains("command not found"))
        #expect(outcome.stderr.contains("dry run finished: nothing was changed"))

        let real = try ReleaseBinary.run(["run", "distribute", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(real.status == 1, "\(real.stderr)")
        #expect(real.stderr.contains("✘ preflight: signing: command not found: 'security' (signing.sync installs the certificate in a keychain on macOS)\n"), "\(real.stderr)")
        #expect(!real.stderr.contains("needs Xcode"))
        try expectClean(machine)
    }

    /// Issue 23 item 4: a plain dry run on Linux says which steps are skipped because of the system, and how to see them.
    @Test func aDryRunOnLinuxSaysWhichStepsTheSystemSkipsAndHowToSeeThem() throws {
        let (server, github) = try Self.github()
        defer { server.stop() }
        let machine = try Self.machine(extra: github)
        let outcome = try ReleaseBinary.run(["run", "distribute", "--os", "linux", "--dry-run"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for step in ["signing", "archive", "export", "validate"] {
            let line = "○ \(step) skipped: runs on macos only (when: "
            #expect(outcome.stderr.contains(line), "\(line)\n\(outcome.stderr)")
        }
        #expect(outcome.stderr.contains("○ archive skipped: runs on macos only (when: os is 'macos'), this is linux; see it with --os macos\n"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("○ check-dsyms skipped: uses outputs of 'archive', which runs on macos only; see both with --os macos\n"), "\(outcome.stderr)")
    }
}
