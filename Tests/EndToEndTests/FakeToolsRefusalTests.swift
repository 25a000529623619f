import Foundation
import Testing

/// The fake Apple and Ruby tools (Fixtures/FakeTools) refuse what the real ones refuse, with the real tools' messages
/// (found with the search tool, not invented): each is run directly as a process, as a pipeline step runs it.
@Suite struct FakeToolsRefusalTests {
    static let tools = ReleaseBinary.root.appendingPathComponent("Fixtures/FakeTools").path

    /// A copy of the demo project outside Fixtures/DemoApp (the fake reads its settings with `release version`), with
    /// `extra` appended to the xcconfig every configuration is based on.
    static func demo(appending extra: String = "") throws -> String {
        let directory = ReleaseBinary.temporaryDirectory() + "/app"
        try FileManager.default.copyItem(atPath: ReleaseBinary.root.appendingPathComponent("Fixtures/DemoApp").path, toPath: directory)
        if !extra.isEmpty {
            let config = directory + "/Config/Version.xcconfig"
            let text = try String(contentsOfFile: config, encoding: .utf8)
            try (text + extra).write(toFile: config, atomically: true, encoding: .utf8)
        }
        return directory
    }

    static func run(_ tool: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> ReleaseBinary.Outcome {
        let state = ReleaseBinary.temporaryDirectory()
        return try ReleaseBinary.run(
            arguments, in: directory,
            environment: ["RELEASE_FAKE_RELEASE": ReleaseBinary.path, "RELEASE_FAKE_STATE": state, "HOME": state, "RELEASE_FAKE_XCODE_ACCOUNT": ""]
                .merging(environment) { _, new in new },
            executable: tools + "/" + tool)
    }

    static let archive = ["archive", "-scheme", "Demo", "-configuration", "Release", "-archivePath", "build/Demo.xcarchive"]

    @Test func xcodebuildRefusesAProjectThatIsNotAnXcodeproj() throws {
        let directory = try Self.demo()
        try "name: Demo\n".write(toFile: directory + "/project.yml", atomically: true, encoding: .utf8)
        let outcome = try Self.run("xcodebuild", ["-project", "project.yml"] + Self.archive, in: directory)
        #expect(outcome.status == 66)
        #expect(outcome.stderr == "xcodebuild: error: 'project.yml' does not exist.\n")
        let missing = try Self.run("xcodebuild", ["-workspace", "Demo.xcworkspace"] + Self.archive, in: directory)
        #expect(missing.status == 66 && missing.stderr == "xcodebuild: error: 'Demo.xcworkspace' does not exist.\n", "\(missing.stderr)")
    }

    @Test func xcodebuildRefusesASchemeThatIsNotShared() throws {
        let directory = try Self.demo()
        let schemes = directory + "/Demo.xcodeproj/xcshareddata/xcschemes"
        try FileManager.default.createDirectory(atPath: schemes, withIntermediateDirectories: true)
        try "<Scheme></Scheme>\n".write(toFile: schemes + "/Demo-Debug.xcscheme", atomically: true, encoding: .utf8)
        let outcome = try Self.run("xcodebuild", ["-project", "Demo.xcodeproj"] + Self.archive, in: directory)
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr
                == "xcodebuild: error: The project named \"Demo\" does not contain a scheme named \"Demo\". The \"-list\" option can be used to find the names of the schemes in the project.\n"
        )
        // In a workspace: the workspace's and its projects' shared schemes count, and the message names the workspace.
        try FileManager.default.createDirectory(atPath: directory + "/Demo.xcworkspace", withIntermediateDirectories: true)
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n   <FileRef location = \"group:Demo.xcodeproj\"></FileRef>\n</Workspace>\n"
            .write(toFile: directory + "/Demo.xcworkspace/contents.xcworkspacedata", atomically: true, encoding: .utf8)
        let workspace = try Self.run("xcodebuild", ["-workspace", "Demo.xcworkspace"] + Self.archive, in: directory)
        #expect(workspace.status == 65)
        #expect(workspace.stderr.hasPrefix("xcodebuild: error: The workspace named \"Demo\" does not contain a scheme named \"Demo\"."), "\(workspace.stderr)")
        #expect(workspace.stderr.hasSuffix("to find the names of the schemes in the workspace.\n"))
        let shared = try Self.run("xcodebuild", ["-workspace", "Demo.xcworkspace", "-scheme", "Demo-Debug", "-configuration", "Release"], in: directory)
        #expect(!shared.stderr.contains("does not contain a scheme"), "\(shared.stderr)")
    }

    @Test func xcodebuildRefusesAutomaticSigningOverAManualProfile() throws {
        let directory = try Self.demo(appending: "PROVISIONING_PROFILE_SPECIFIER = match AppStore com.example.demo\n")
        let outcome = try Self.run("xcodebuild", ["-project", "Demo.xcodeproj"] + Self.archive + ["CODE_SIGN_STYLE=Automatic"], in: directory)
        #expect(outcome.status == 65)
        #expect(
            outcome.stdout.contains(
                "error: Demo has conflicting provisioning settings. Demo is automatically signed, but provisioning profile match AppStore com.example.demo has been manually specified. Set the provisioning profile value to \"Automatic\" in the build settings editor, or switch to manual signing in the Signing & Capabilities editor. (in target 'Demo' from project 'Demo')"
            ), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("** ARCHIVE FAILED **"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/build/Demo.xcarchive"))
    }

    @Test func xcodebuildRefusesAutomaticSigningWithADistributionIdentity() throws {
        let directory = try Self.demo(appending: "CODE_SIGN_IDENTITY[sdk=iphoneos*] = Apple Distribution\n")
        let outcome = try Self.run("xcodebuild", ["-project", "Demo.xcodeproj"] + Self.archive, in: directory)
        #expect(outcome.status == 65)
        #expect(
            outcome.stdout.contains(
                "error: Demo has conflicting provisioning settings. Demo is automatically signed for development, but a conflicting code signing identity Apple Distribution has been manually specified. Set the code signing identity value to \"Apple Development\" in the build settings editor, or switch to manual signing in the Signing & Capabilities editor. (in target 'Demo' from project 'Demo')"
            ), "\(outcome.stdout)")
    }

    @Test func xcodebuildAcceptsStyleIdentityAndSpecifierOverriddenTogether() throws {
        let directory = try Self.demo(appending: "CODE_SIGN_IDENTITY = Apple Distribution\nPROVISIONING_PROFILE_SPECIFIER = match AppStore com.example.demo\n")
        // The demo's targets say CODE_SIGN_STYLE = Automatic, above the xcconfig: manual signing on the command line
        // does not conflict, once each target's profile is installed (the app's and the widget's).
        let home = ReleaseBinary.temporaryDirectory()
        for bundleID in ["com.example.demo", "com.example.demo.widget"] {
            try Self.installProfile(name: "match AppStore \(bundleID)", team: "ABCDE12345", appID: bundleID, home: home)
        }
        let manual = try Self.run(
            "xcodebuild",
            ["-project", "Demo.xcodeproj"] + Self.archive + ["CODE_SIGN_STYLE=Manual", "PROVISIONING_PROFILE_SPECIFIER=match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)"],
            in: directory, environment: ["HOME": home])
        #expect(manual.status == 0, "\(manual.stdout)\(manual.stderr)")
        // The project's automatic style with its manual identity and specifier: Xcode refuses.
        let styleOnly = try Self.run("xcodebuild", ["-project", "Demo.xcodeproj"] + Self.archive, in: directory)
        #expect(styleOnly.status == 65 && styleOnly.stdout.contains("has conflicting provisioning settings"), "\(styleOnly.stdout)")
        // Automatic signing needs -allowProvisioningUpdates (and an account or the key) to make its profiles, as the
        // API-key starter passes them.
        let together = try Self.run(
            "xcodebuild",
            ["-project", "Demo.xcodeproj"] + Self.archive + [
                "CODE_SIGN_STYLE=Automatic", "CODE_SIGN_IDENTITY=Apple Development", "PROVISIONING_PROFILE_SPECIFIER=", "-allowProvisioningUpdates",
            ],
            in: directory, environment: ["RELEASE_FAKE_XCODE_ACCOUNT": "dev@example.com"])
        #expect(together.status == 0, "\(together.stdout)\(together.stderr)")
        #expect(together.stdout.contains("** ARCHIVE SUCCEEDED **"))
    }

    /// A profile as `signing.profile` and `signing.sync` install it, where Xcode looks (`<UUID>.mobileprovision`); the
    /// fake reads the plist inside, so an unsigned one does.
    static func installProfile(name: String, team: String, appID: String, home: String, development: Bool = false) throws {
        let folder = home + "/Library/MobileDevice/Provisioning Profiles"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let uuid = UUID().uuidString
        let profile: [String: Any] = [
            "Name": name, "UUID": uuid, "TeamIdentifier": [team],
            "Entitlements": ["application-identifier": "\(team).\(appID)", "get-task-allow": development] as [String: Any],
        ]
        try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0).write(to: URL(fileURLWithPath: folder + "/\(uuid).mobileprovision"))
    }

    /// Manual signing finds its profile by team and specifier among those installed, as Xcode does, and refuses, with
    /// Xcode's own messages, a specifier no installed profile answers (for the team DEVELOPMENT_TEAM names) or a
    /// profile made for another app ID. `$(PRODUCT_BUNDLE_IDENTIFIER)` in a command-line specifier is each target's.
    @Test func xcodebuildRefusesAManualSpecifierNoInstalledProfileAnswers() throws {
        let directory = try Self.demo(
            appending: "CODE_SIGN_STYLE = Manual\nCODE_SIGN_IDENTITY = Apple Distribution\nPROVISIONING_PROFILE_SPECIFIER = match AppStore com.example.demo\n")
        let home = ReleaseBinary.temporaryDirectory()
        let manual = ["-project", "Demo.xcodeproj"] + Self.archive + ["CODE_SIGN_STYLE=Manual", "DEVELOPMENT_TEAM=HKE973VLUW"]
        let none = try Self.run("xcodebuild", manual, in: directory, environment: ["HOME": home])
        #expect(none.status == 65)
        #expect(
            none.stdout.contains(
                "error: No profile for team 'HKE973VLUW' matching 'match AppStore com.example.demo' found: Xcode couldn't find any provisioning profiles matching 'HKE973VLUW/match AppStore com.example.demo'. Install the profile (by dragging and dropping it onto Xcode's dock item) or select a different one in the Signing & Capabilities tab of the target editor. (in target 'Demo' from project 'Demo')"
            ), "\(none.stdout)")
        #expect(none.stdout.contains("** ARCHIVE FAILED **") && !FileManager.default.fileExists(atPath: directory + "/build/Demo.xcarchive"))

        // Installed, but another team's (the rehearsal's own, say): Xcode looks profiles up by team, so still none.
        try Self.installProfile(name: "match AppStore com.example.demo", team: "ABCDE12345", appID: "com.example.demo", home: home)
        let otherTeam = try Self.run("xcodebuild", manual, in: directory, environment: ["HOME": home])
        #expect(
            otherTeam.status == 65 && otherTeam.stdout.contains("error: No profile for team 'HKE973VLUW' matching 'match AppStore com.example.demo' found"), "\(otherTeam.stdout)")

        // The team's profile: the app finds it, but the widget names the same one, made for the app's ID.
        try Self.installProfile(name: "match AppStore com.example.demo", team: "HKE973VLUW", appID: "com.example.demo", home: home)
        let widget = try Self.run("xcodebuild", manual, in: directory, environment: ["HOME": home])
        #expect(widget.status == 65)
        #expect(
            widget.stdout.contains(
                "error: Provisioning profile \"match AppStore com.example.demo\" has app ID \"com.example.demo\", which does not match the bundle ID \"com.example.demo.widget\". (in target 'DemoWidget' from project 'Demo')"
            ), "\(widget.stdout)")
        #expect(!widget.stdout.contains("No profile for team"), "the app's own profile is found: \(widget.stdout)")

        // Each target's own name, as signing.sync makes them and the starter asks for them.
        for bundleID in ["com.example.demo", "com.example.demo.widget"] {
            try Self.installProfile(name: "release app-store \(bundleID)", team: "HKE973VLUW", appID: bundleID, home: home)
        }
        let synced = try Self.run(
            "xcodebuild", manual + ["PROVISIONING_PROFILE_SPECIFIER=release app-store $(PRODUCT_BUNDLE_IDENTIFIER)"], in: directory, environment: ["HOME": home])
        #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
        #expect(synced.stdout.contains("** ARCHIVE SUCCEEDED **"))
    }

    /// Automatic signing (the demo's own style) signs for development: without -allowProvisioningUpdates Xcode may not
    /// make the profile, so an archive with no development profile installed for each target fails, with Xcode's own
    /// message; an App Store profile installed for the run does not answer, a development one does.
    @Test func xcodebuildRefusesAutomaticSigningWithoutProvisioningUpdatesOrADevelopmentProfile() throws {
        let directory = try Self.demo()
        let home = ReleaseBinary.temporaryDirectory()
        let arguments = ["-project", "Demo.xcodeproj"] + Self.archive + ["DEVELOPMENT_TEAM=ABCDE12345"]
        let none = try Self.run("xcodebuild", arguments, in: directory, environment: ["HOME": home])
        #expect(none.status == 65)
        for (bundleID, target) in [("com.example.demo", "Demo"), ("com.example.demo.widget", "DemoWidget")] {
            #expect(
                none.stdout.contains(
                    "error: No profiles for '\(bundleID)' were found: Xcode couldn't find any iOS App Development provisioning profiles matching '\(bundleID)'. Automatic signing is disabled and unable to generate a profile. To enable automatic signing, pass -allowProvisioningUpdates to xcodebuild. (in target '\(target)' from project 'Demo')"
                ), "\(none.stdout)")
        }
        #expect(none.stdout.contains("** ARCHIVE FAILED **") && !FileManager.default.fileExists(atPath: directory + "/build/Demo.xcarchive"))
        // Distribution profiles, as --signing files installs them: still none for automatic signing.
        for bundleID in ["com.example.demo", "com.example.demo.widget"] {
            try Self.installProfile(name: "App Store \(bundleID)", team: "ABCDE12345", appID: bundleID, home: home)
        }
        let distribution = try Self.run("xcodebuild", arguments, in: directory, environment: ["HOME": home])
        #expect(distribution.status == 65 && distribution.stdout.contains("Automatic signing is disabled and unable to generate a profile"), "\(distribution.stdout)")
        // With -allowProvisioningUpdates and the API key, Xcode makes what it needs.
        let key = ReleaseBinary.root.appendingPathComponent("Fixtures/Signing/AuthKey_DEMO123456.p8").path
        let withKey = try Self.run(
            "xcodebuild",
            arguments + ["-allowProvisioningUpdates", "-authenticationKeyPath", key, "-authenticationKeyID", "DEMO123456", "-authenticationKeyIssuerID", "issuer"],
            in: directory, environment: ["HOME": home])
        #expect(withKey.status == 0, "\(withKey.stdout)\(withKey.stderr)")
        // Or a development profile for each target, installed by hand.
        for bundleID in ["com.example.demo", "com.example.demo.widget"] {
            try Self.installProfile(name: "Development \(bundleID)", team: "ABCDE12345", appID: bundleID, home: home, development: true)
        }
        let developed = try Self.run("xcodebuild", arguments, in: directory, environment: ["HOME": home])
        #expect(developed.status == 0, "\(developed.stdout)\(developed.stderr)")
    }

    @Test func xcodebuildRefusesProvisioningUpdatesWithoutAnAccountOrKey() throws {
        let directory = try Self.demo()
        let arguments = ["-project", "Demo.xcodeproj"] + Self.archive + ["-allowProvisioningUpdates"]
        let outcome = try Self.run("xcodebuild", arguments, in: directory)
        #expect(outcome.status == 65)
        #expect(outcome.stdout.contains("error: No Accounts: Add a new account in Accounts settings.\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("** ARCHIVE FAILED **"))
        let signedIn = try Self.run("xcodebuild", arguments, in: directory, environment: ["RELEASE_FAKE_XCODE_ACCOUNT": "dev@example.com"])
        #expect(signedIn.status == 0, "\(signedIn.stdout)")
    }

    static let guardedPodfile = """
        source 'https://cdn.cocoapods.org/'

        unless ['BUNDLE_BIN_PATH', 'BUNDLE_GEMFILE'].any? { |k| ENV.key?(k) }
          raise 'Please run CocoaPods via `bundle exec`'
        end

        target 'Demo' do
        end

        """

    @Test func podRunsThePodfilesBundlerGuard() throws {
        let directory = try Self.demo()
        try Self.guardedPodfile.write(toFile: directory + "/Podfile", atomically: true, encoding: .utf8)
        let outcome = try Self.run("pod", ["install"], in: directory)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("[!] Invalid `Podfile` file: Please run CocoaPods via `bundle exec`.\n"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(" #  from \(directory)/Podfile:4\n"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(" >    raise 'Please run CocoaPods via `bundle exec`'\n"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/Pods"))

        // The one-line form.
        try "raise 'Run pod install through bundler' unless defined?(Bundler)\n".write(toFile: directory + "/Podfile", atomically: true, encoding: .utf8)
        let oneLine = try Self.run("pod", ["install"], in: directory)
        #expect(oneLine.status == 1 && oneLine.stderr.contains("[!] Invalid `Podfile` file: Run pod install through bundler.\n"), "\(oneLine.stderr)")

        // Through bundler it installs.
        try Self.guardedPodfile.write(toFile: directory + "/Podfile", atomically: true, encoding: .utf8)
        try "source 'https://rubygems.org'\ngem 'cocoapods', '~> 1.15'\n".write(toFile: directory + "/Gemfile", atomically: true, encoding: .utf8)
        let path = Self.tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let bundled = try Self.run("bundle", ["exec", "pod", "install"], in: directory, environment: ["PATH": path])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout.contains("Pod installation complete!"))
    }

    @Test func bundleNeedsAGemfileAndACommand() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        let missing = try Self.run("bundle", ["install"], in: directory)
        #expect(missing.status == 10 && missing.stderr == "Could not locate Gemfile\n", "\(missing.stderr)")
        try "source 'https://rubygems.org'\ngem 'cocoapods'\ngem 'fastlane'\n".write(toFile: directory + "/Gemfile", atomically: true, encoding: .utf8)
        let installed = try Self.run("bundle", ["install"], in: directory)
        #expect(installed.status == 0)
        #expect(installed.stdout.hasPrefix("Bundle complete! 2 Gemfile dependencies"), "\(installed.stdout)")
        let unknown = try Self.run("bundle", ["exec", "no-such-tool-here"], in: directory)
        #expect(unknown.status == 127)
        #expect(unknown.stderr == "bundler: command not found: no-such-tool-here\nInstall missing gem executables with `bundle install`\n")
        let none = try Self.run("bundle", ["exec"], in: directory)
        #expect(none.status == 128 && none.stderr == "bundler: exec needs a command to run\n")
        let env = try Self.run("bundle", ["exec", "/usr/bin/env"], in: directory)
        #expect(env.stdout.contains("BUNDLE_GEMFILE=\(directory)/Gemfile\n"), "\(env.stdout)")
    }

    @Test func xcodegenNeedsTheSpecAndWritesTheProject() throws {
        let directory = ReleaseBinary.temporaryDirectory() + "/generated"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let missing = try Self.run("xcodegen", ["generate"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr == "No project spec found at \(directory)/project.yml\n", "\(missing.stderr)")
        try """
        name: Spaceship
        settings:
          MARKETING_VERSION: 2.4.0
          CURRENT_PROJECT_VERSION: 31
        targets:
          Spaceship:
            type: application
            platform: iOS
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.spaceship

        """.write(toFile: directory + "/project.yml", atomically: true, encoding: .utf8)
        let generated = try Self.run("xcodegen", ["generate", "--spec", "project.yml"], in: directory)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("Created project at \(directory)/Spaceship.xcodeproj"))
        let version = try ReleaseBinary.run(["version", "--json", "--project", "Spaceship.xcodeproj"], in: directory)
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.contains("\"bundle_identifier\" : \"com.example.spaceship\""), "\(version.stdout)")
        #expect(version.stdout.contains("\"version\" : \"2.4.0\"") && version.stdout.contains("\"build\" : \"31\""), "\(version.stdout)")
    }
}
