import Foundation
import ReleasePipeline
import Testing

/// Issue 35: `release init` uses the project's tools as the project uses them (Bundler, XcodeGen without a checked-in
/// project, fastlane's build answers) and signs the way the project signs; each starter then runs against the
/// unforgiving fake tools.
@Suite struct InitProjectToolsTests {
    static let fakeTools = ReleaseBinary.root.appendingPathComponent("Fixtures/FakeTools").path

    static func repository(_ name: String, files: [String: String]) throws -> String {
        let directory = ReleaseBinary.temporaryDirectory() + "/" + name
        for (path, text) in files {
            let full = directory + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try commit("upstream head", in: directory)
        try addRemote(directory)
        return directory
    }

    /// A bare `origin` the repository's main is pushed to (the rehearsal pushes to a stand-in of it).
    static func addRemote(_ directory: String) throws {
        let remote = ReleaseBinary.temporaryDirectory() + "/remote.git"
        try ReleaseBinary.git(["init", "-q", "--bare", remote], in: directory)
        try ReleaseBinary.git(["remote", "add", "origin", remote], in: directory)
        try ReleaseBinary.git(["push", "-q", "origin", "main"], in: directory)
    }

    static func commit(_ message: String, in directory: String) throws {
        try ReleaseBinary.git(["add", "-A"], in: directory)
        try ReleaseBinary.git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "-m", message], in: directory)
    }

    static var rehearsal: [String: String] {
        [
            "PATH": fakeTools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "RELEASE_FAKE_RELEASE": ReleaseBinary.path, "RELEASE_FAKE_STATE": ReleaseBinary.temporaryDirectory(),
            "HOME": ReleaseBinary.temporaryDirectory(),
            "GIT_AUTHOR_NAME": "CI", "GIT_AUTHOR_EMAIL": "ci@example.com", "GIT_COMMITTER_NAME": "CI", "GIT_COMMITTER_EMAIL": "ci@example.com",
        ]
    }

    static let spec = """
        name: Spaceship
        settings:
          MARKETING_VERSION: 2.4.0
          CURRENT_PROJECT_VERSION: 31
          DEVELOPMENT_TEAM: ABCDE12345
        targets:
          Spaceship:
            type: application
            platform: iOS
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.spaceship

        """

    @Test func anXcodeGenSpecWithoutAProjectIsGeneratedAndTheGeneratedProjectArchived() throws {
        let directory = try Self.repository("spaceship", files: ["project.yml": Self.spec, ".gitignore": "*.xcodeproj\n"])
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("why: project Spaceship.xcodeproj: the repository holds only the XcodeGen spec project.yml"), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(
            text.contains(
                #"{"id": "generate", "uses": "project.generate", "runs_on": "macos-15", "needs": ["commit"], "when": {"os": "macos"}, "with": {"tool": "xcodegen", "spec": "project.yml", "output": "Spaceship.xcodeproj"}}"#
            ), "\(text)")
        #expect(text.contains(#""needs": ["commit", "generate"]"#), "\(text)")
        #expect(text.contains(#"{"project": "${steps.generate.outputs.path}", "scheme": "${scheme}""#), "\(text)")
        #expect(!text.contains(#""project": "project.yml", "scheme""#))
        try Self.commit("Add the release pipeline", in: directory)
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/next"], in: directory)

        let dryRun = try ReleaseBinary.run(["run", "--dry-run", "--os", "macos"], in: directory)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stderr.contains("xcodebuild -project \(directory)/Spaceship.xcodeproj -scheme Spaceship"), "\(dryRun.stderr)")

        let first = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: Self.rehearsal)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("com.example.spaceship 2.4.0 (32)"), "\(first.stderr)")
    }

    static let guardedPodfile = """
        unless ['BUNDLE_BIN_PATH', 'BUNDLE_GEMFILE'].any? { |k| ENV.key?(k) }
          raise 'Please run CocoaPods via `bundle exec`'
        end

        target 'Demo' do
        end

        """

    @Test func aPodfileThatNeedsBundlerRunsThroughBundleExec() throws {
        let directory = ReleaseBinary.temporaryDirectory() + "/guarded"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.appendingPathComponent("Fixtures/DemoApp").path, toPath: directory)
        try Self.guardedPodfile.write(toFile: directory + "/Podfile", atomically: true, encoding: .utf8)
        try "source 'https://rubygems.org'\n\ngem 'cocoapods', '~> 1.15'\ngem 'fastlane'\n".write(toFile: directory + "/Gemfile", atomically: true, encoding: .utf8)
        try "Pods/\nDemo.xcworkspace/\n".write(toFile: directory + "/.gitignore", atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        try Self.addRemote(directory)

        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--team", "ABCDE12345"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("generation: bundle exec pod install (Podfile)"), "\(initialized.stderr)")
        #expect(
            initialized.stderr.contains("why: bundle install, then bundle exec pod: Gemfile pins cocoapods and Podfile:2 refuses to run outside bundler"),
            "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(
            text.contains(#"{"id": "gems", "uses": "shell", "runs_on": "macos-15", "needs": ["commit"], "when": {"os": "macos"}, "with": {"run": ["bundle", "install"]}}"#),
            "\(text)")
        #expect(
            text.contains(
                #"{"id": "pods", "uses": "project.generate", "runs_on": "macos-15", "needs": ["gems"], "when": {"os": "macos"}, "with": {"tool": "cocoapods", "spec": "Podfile", "bundler": true, "output": "Demo.xcworkspace"}}"#
            ), "\(text)")
        try Self.commit("Add the release pipeline", in: directory)

        let first = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: Self.rehearsal)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Pod installation complete!"), "\(first.stderr)")
    }

    /// A demo whose Release signs manually with fastlane match's profile, through an xcconfig include.
    static func manuallySignedDemo() throws -> String {
        let directory = ReleaseBinary.temporaryDirectory() + "/manual"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.appendingPathComponent("Fixtures/DemoApp").path, toPath: directory)
        let config = directory + "/Config/Version.xcconfig"
        try (try String(contentsOfFile: config, encoding: .utf8) + "#include \"Signing.xcconfig\"\n").write(toFile: config, atomically: true, encoding: .utf8)
        // The demo's targets say CODE_SIGN_STYLE = Automatic themselves, above the xcconfig: leave it to the xcconfig.
        let pbxproj = directory + "/Demo.xcodeproj/project.pbxproj"
        let project = try String(contentsOfFile: pbxproj, encoding: .utf8)
        try project.replacingOccurrences(of: "\t\t\t\tCODE_SIGN_STYLE = Automatic;\n", with: "").write(toFile: pbxproj, atomically: true, encoding: .utf8)
        try "CODE_SIGN_STYLE = Manual\nCODE_SIGN_IDENTITY = Apple Distribution\nPROVISIONING_PROFILE_SPECIFIER = match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)\n"
            .write(toFile: directory + "/Config/Signing.xcconfig", atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        try Self.addRemote(directory)
        return directory
    }

    @Test func aManuallySignedProjectGetsFilesProposedAndSaysWhy() throws {
        let directory = try Self.manuallySignedDemo()
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--team", "ABCDE12345"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("signing:    a certificate (.p12) and provisioning profiles from secrets"), "\(initialized.stderr)")
        #expect(initialized.stderr.contains("why: signing files: Release signs manually (CODE_SIGN_STYLE = Manual for "), "\(initialized.stderr)")
        #expect(initialized.stderr.contains("Config/Signing.xcconfig:1"), "\(initialized.stderr)")
        #expect(
            initialized.stderr.contains("its profiles come from fastlane match (PROVISIONING_PROFILE_SPECIFIER = 'match AppStore com.example.demo')"),
            "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""uses": "signing.keychain""#))
        #expect(!text.contains("CODE_SIGN_STYLE"), "\(text)")
        #expect(initialized.stderr.contains("'release run --rehearse' stands in for all but the certificate and profiles"), "\(initialized.stderr)")

        // A rehearsal has no stand-in for the certificate file: the refusal names the secret to set, not only '***'.
        try Self.commit("Add the release pipeline", in: directory)
        let rehearsed = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: Self.rehearsal)
        #expect(rehearsed.status == 1, "\(rehearsed.stderr)")
        #expect(
            rehearsed.stderr.contains(
                "✘ preflight: keychain: option 'certificate': no such file or directory '\(directory)/***' ('CERTIFICATE_P12' is not set, and the rehearsal's placeholder for it is not a real one: set it to rehearse this step)"
            ), "\(rehearsed.stderr)")
        #expect(!rehearsed.stderr.contains("'APP_STORE_CONNECT_KEY' is not set"), "\(rehearsed.stderr)")
    }

    @Test func keepingTheAPIKeyOnAManuallySignedProjectOverridesStyleIdentityAndSpecifierTogether() throws {
        let directory = try Self.manuallySignedDemo()
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--team", "ABCDE12345", "--signing", "api-key"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(
            initialized.stderr.contains(
                "the archive sets CODE_SIGN_STYLE=Automatic CODE_SIGN_IDENTITY=Apple Development PROVISIONING_PROFILE_SPECIFIER= together, so Xcode accepts automatic signing"
            ), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(
            text.contains(
                #""build_settings": {"DEVELOPMENT_TEAM": "${team}", "CODE_SIGN_STYLE": "Automatic", "CODE_SIGN_IDENTITY": "Apple Development", "PROVISIONING_PROFILE_SPECIFIER": ""}"#
            ), "\(text)")
        try Self.commit("Add the release pipeline", in: directory)
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/next"], in: directory)
        // The fake xcodebuild refuses automatic signing over the project's manual settings unless all three go together.
        let first = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: Self.rehearsal)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("conflicting provisioning settings"), "\(first.stderr)")
    }

    /// `--signing files` on a project that signs automatically (the demo, as most projects): the run installs
    /// distribution profiles only, and Xcode's automatic signing, which signs for development, refuses to make its own
    /// without -allowProvisioningUpdates. So the archive signs automatically with the API key and the export signs
    /// manually with the installed certificate and profiles; init says so, and a rehearsal with the team's files
    /// archives and exports through the fake xcodebuild, which refuses automatic signing without them.
    @Test func filesSigningOnAnAutomaticallySignedProjectArchivesWithTheKeyAndExportsWithTheFiles() throws {
        let directory = ReleaseBinary.temporaryDirectory() + "/automatic"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.appendingPathComponent("Fixtures/DemoApp").path, toPath: directory)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        try Self.addRemote(directory)
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--team", "ABCDE12345", "--signing", "files"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("signing:    a certificate (.p12) and provisioning profiles from secrets"), "\(initialized.stderr)")
        #expect(
            initialized.stderr.contains(
                "why: signing files on a project that signs automatically in Release: the archive signs automatically with the App Store Connect API key"
            ), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        let archive = try #require(text.split(separator: "\n").first { $0.contains(#""id": "archive""#) })
        #expect(archive.contains(#""allow_provisioning_updates": true"#) && archive.contains(#""CODE_SIGN_STYLE": "Automatic""#), "\(archive)")
        try Self.commit("Add the release pipeline", in: directory)

        let signing = ReleaseBinary.root.appendingPathComponent("Fixtures/Signing").path
        func base64(_ file: String) throws -> String { try Data(contentsOf: URL(fileURLWithPath: signing + "/" + file)).base64EncodedString() }
        // The team's files, as the secrets hold them (the demo's widget signs with the app's ad hoc profile here:
        // the fixtures have one profile per type).
        var environment = Self.rehearsal
        environment["CERTIFICATE_P12"] = try base64("Distribution.p12")
        environment["CERTIFICATE_PASSWORD"] = "demo-p12-password"
        environment["RELEASE_FAKE_P12_PASSWORD"] = "demo-p12-password"
        for secret in ["ADHOC_PROFILE", "ADHOC_PROFILE_WIDGET"] { environment[secret] = try base64("adhoc.mobileprovision") }
        for secret in ["APPSTORE_PROFILE", "APPSTORE_PROFILE_WIDGET"] { environment[secret] = try base64("release.mobileprovision") }
        let rehearsed = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: environment)
        #expect(rehearsed.status == 0, "\(rehearsed.stderr)")
        #expect(!rehearsed.stderr.contains("Automatic signing is disabled"), "\(rehearsed.stderr)")
    }

    /// The real apps that sign Release manually with fastlane match, and where their style is set.
    static let manualApps: [(name: String, match: String, definedAt: String)] = [
        ("duckduckgo-ios", "match AppStore com.duckduckgo.mobile.ios", "Configuration/DuckDuckGoDeveloper.xcconfig:26"),
        ("owncloud-ios-app", "match AppStore com.owncloud.ios-app", "ownCloud.xcodeproj/project.pbxproj:"),
        ("pocket-casts-ios", "match AppStore au.com.shiftyjelly.podcasts", "podcasts.xcodeproj/project.pbxproj:"),
    ]

    @Test(.needsShared(.realProjects), arguments: 0..<3)
    func realAppsThatSignManuallyGetFilesProposed(index: Int) throws {
        let app = Self.manualApps[index]
        let head = try RealProjectsCommandTests.requireCorpus() + "/\(app.name)/head"
        let directory = ReleaseBinary.temporaryDirectory() + "/" + app.name
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("signing:    a certificate (.p12) and provisioning profiles from secrets"), "\(initialized.stderr)")
        #expect(initialized.stderr.contains("why: signing files: Release signs manually (CODE_SIGN_STYLE = Manual for "), "\(initialized.stderr)")
        #expect(initialized.stderr.contains(app.definedAt), "\(initialized.stderr)")
        #expect(initialized.stderr.contains("its profiles come from fastlane match (PROVISIONING_PROFILE_SPECIFIER = '\(app.match)')"), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""uses": "signing.keychain""#) && !text.contains("allow_provisioning_updates"), "\(text)")

        // Keeping the API key: the three settings are overridden together, and init says so.
        try FileManager.default.removeItem(atPath: directory + "/Pipelines/release.json")
        let kept = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--signing", "api-key"], in: directory)
        try #require(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("signing:    Xcode-managed signing with the App Store Connect API key"), "\(kept.stderr)")
        #expect(kept.stderr.contains("identity Apple Distribution") || kept.stderr.contains("identity iPhone Distribution"), "\(kept.stderr)")
        #expect(
            kept.stderr.contains("the archive sets CODE_SIGN_STYLE=Automatic CODE_SIGN_IDENTITY=Apple Development PROVISIONING_PROFILE_SPECIFIER= together"),
            "\(kept.stderr)")
        let keptText = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(keptText.contains(#""CODE_SIGN_STYLE": "Automatic", "CODE_SIGN_IDENTITY": "Apple Development", "PROVISIONING_PROFILE_SPECIFIER": """#), "\(keptText)")
    }

    @Test(.needsShared(.realProjects)) func automaticallySignedRealAppsKeepTheAPIKeyAndOnlyTheStyle() throws {
        let head = try RealProjectsCommandTests.requireCorpus() + "/keepassium/head"
        let directory = ReleaseBinary.temporaryDirectory() + "/keepassium"
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--target", "KeePassium"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("signing:    Xcode-managed signing with the App Store Connect API key"), "\(initialized.stderr)")
        #expect(!initialized.stderr.contains("why: signing"), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""build_settings": {"DEVELOPMENT_TEAM": "${team}", "CODE_SIGN_STYLE": "Automatic"}"#), "\(text)")
    }

    /// The Xcode `.xcode-version` pins is the one the Xcode steps run: a runner without it fails in preflight, before
    /// the bump, naming the version wanted and the Xcode there.
    @Test(.needsShared(.realProjects)) func thePinnedXcodeIsCheckedBeforeAnythingRuns() throws {
        let head = try RealProjectsCommandTests.requireCorpus() + "/owncloud-ios-app/head"
        let directory = ReleaseBinary.temporaryDirectory() + "/owncloud-xcode"
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        try Self.addRemote(directory)
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--signing", "api-key"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("Xcode 26.2 is pinned by .xcode-version: the Xcode steps run it"), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""xcode_version": "26.2","#), "\(text)")
        #expect(text.components(separatedBy: #""xcode_version": "${xcode_version}""#).count == 3, "\(text)")
        try Self.commit("Add the release pipeline", in: directory)
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/next"], in: directory)
        let before = try InitRealProjectsTests.output(["git", "log", "--format=%H"], in: directory)

        // A runner whose Xcode is 16.2: both Xcode steps refuse in preflight, and nothing is bumped or committed.
        let wrong = try ReleaseBinary.run(
            ["run", "--rehearse", "--os", "macos"], in: directory, environment: Self.rehearsal.merging(["RELEASE_FAKE_XCODE": "16.2"]) { _, new in new })
        #expect(wrong.status == 1, "\(wrong.stderr)")
        let refusal =
            "Xcode 26.2 (xcode_version) is not the Xcode here: xcodebuild -version says Xcode 16.2 (16C5032a), and no other is installed; run on a runner image that has Xcode 26.2, or install it (xcodes install 26.2)"
        #expect(wrong.stderr.contains("✘ preflight: archive: \(refusal)"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("✘ preflight: archive: \(refusal)\n"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("⊘ export blocked by 'archive', whose preflight failed"), "\(wrong.stderr)")
        #expect(try InitRealProjectsTests.output(["git", "log", "--format=%H"], in: directory) == before)
        #expect(try InitRealProjectsTests.output(["git", "status", "--porcelain"], in: directory).isEmpty)
    }

    @Test(.needsShared(.realProjects)) func theXcodeTheProjectPinsPicksTheRunnerAndRunnerOverridesIt() throws {
        let head = try RealProjectsCommandTests.requireCorpus() + "/owncloud-ios-app/head"
        let directory = ReleaseBinary.temporaryDirectory() + "/owncloud"
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try Self.commit("upstream head", in: directory)
        let initialized = try ReleaseBinary.run(["init", "--yes", "--repository", "-"], in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("why: runner macos-26: it has Xcode 26.2, which .xcode-version pins (--runner picks another)"), "\(initialized.stderr)")
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""runs_on": "macos-26""#) && text.contains("built with Xcode 26.2 (.xcode-version), on macos-26"), "\(text)")

        try FileManager.default.removeItem(atPath: directory + "/Pipelines/release.json")
        let chosen = try ReleaseBinary.run(["init", "--yes", "--repository", "-", "--runner", "macos-15-xlarge"], in: directory)
        try #require(chosen.status == 0, "\(chosen.stderr)")
        #expect(try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8).contains(#""runs_on": "macos-15-xlarge""#))
        try FileManager.default.removeItem(atPath: directory + "/Pipelines/release.json")
        let bad = try ReleaseBinary.run(["init", "--yes", "--runner", "macos 15"], in: directory)
        #expect(bad.status == 64 && bad.stderr.contains("--runner 'macos 15' is not a runner label"), "\(bad.stderr)")
        #expect(StarterPipeline.runner(forXcode: "16.2") == "macos-15" && StarterPipeline.runner(forXcode: "15.4") == "macos-14")
    }
}
