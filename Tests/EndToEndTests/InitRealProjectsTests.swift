import Foundation
import Testing

/// Issues 23 and 35's "done means", on each of the 8 apps of `../shared/real-projects` as a user would meet it: the
/// app's head in a git repository of its own (with a GitHub remote, and `Pods/` ignored as CocoaPods projects do),
/// `release init --yes` with the flags a user would pass, the pipeline committed; then `validate`, a dry run `--os
/// macos` that shows the commands a Mac would run (right workspace or project, scheme, destination, export method), and
/// two rehearsals on a release branch as a hosted runner runs them (no git identity: an empty `HOME`,
/// `GIT_CONFIG_NOSYSTEM=1`, no identity variables; the fake Xcode tools of `release rehearse-tools` first on PATH; the
/// rehearsal stands in for GitHub and App Store Connect): the first bumps, builds, uploads to App Store Connect, gives
/// the build to a TestFlight group and publishes the GitHub Release; the second builds, uploads and publishes nothing;
/// the tree stays clean.
@Suite(.needsShared(.realProjects)) struct InitRealProjectsTests {
    struct App: Sendable, CustomTestStringConvertible {
        var name: String
        var flags: [String] = []
        /// What `xcodebuild archive` must be given: `-workspace X` or `-project X`.
        var container: [String]
        var scheme: String
        var bundleID: String
        /// The version and build after the starter's bump on a release branch: the version stays, the build moves.
        var version: String
        var build: String
        /// Steps init must write for the project's generator or dependency manager, as written in the pipeline.
        var generation: [String] = []
        var destination = "generic/platform=iOS"
        /// The Xcode of the runner image the starter picks, when the app's CI (not `.xcode-version`, which the fake
        /// reads itself) names it: what the fake xcodebuild plays.
        var xcode: String?
        var testDescription: String { name }
    }

    static let apps: [App] = [
        // Manually signed in Release with fastlane match (`match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)` for the app and
        // its 5 extensions; init proposes --signing files): signed here with signing.sync, so the archive asks for the
        // profiles signing.sync installs (`release app-store <bundle id>`, the project's team's), which the fake
        // xcodebuild looks up among those installed as Xcode does. ownCloud and Pocket Casts, also match-signed, keep
        // the API key: the archive overrides style, identity and specifier to automatic together.
        App(
            name: "duckduckgo-ios", flags: ["--signing", "sync"], container: ["-project", "DuckDuckGo-iOS.xcodeproj"], scheme: "iOS Browser",
            bundleID: "com.duckduckgo.mobile.ios", version: "7.157.0", build: "6"),
        App(
            name: "element-x-ios", container: ["-project", "ElementX.xcodeproj"], scheme: "ElementX",
            bundleID: "io.element.elementx", version: "26.07.5", build: "2",
            generation: [#""uses": "project.generate", "runs_on": "macos-26", "needs": ["commit"], "when": {"os": "macos"}, "with": {"tool": "xcodegen", "spec": "project.yml"}}"#],
            xcode: "26.5"),
        App(
            name: "habitica-ios", container: ["-workspace", "Habitica.xcworkspace"], scheme: "Habitica",
            bundleID: "com.habitrpg.ios.Habitica", version: "3.12", build: "1009"),
        App(
            name: "isowords", container: ["-project", "App/isowords.xcodeproj"], scheme: "isowords",
            bundleID: "co.pointfree.IsoWordsTesting", version: "1.3", build: "106", xcode: "15.3"),
        App(
            name: "keepassium", flags: ["--target", "KeePassium", "--signing", "sync"], container: ["-workspace", "KeePassium.xcworkspace"], scheme: "KeePassium",
            bundleID: "com.keepassium.ios", version: "2.6", build: "174"),
        App(
            name: "owncloud-ios-app", flags: ["--testflight-group", "Beta", "--signing", "api-key"], container: ["-project", "ownCloud.xcodeproj"], scheme: "ownCloud",
            bundleID: "com.owncloud.ios-app", version: "12.7.0", build: "303"),
        App(
            name: "pocket-casts-ios", flags: ["--signing", "api-key"], container: ["-workspace", "podcasts.xcworkspace"], scheme: "pocketcasts",
            bundleID: "au.com.shiftyjelly.podcasts", version: "7.75", build: "7.75.0.4",
            generation: [
                #"{"id": "gems", "uses": "shell", "runs_on": "macos-15", "needs": ["commit"], "when": {"os": "macos"}, "with": {"run": ["bundle", "install"]}}"#,
                #"{"id": "pods", "uses": "project.generate", "runs_on": "macos-15", "needs": ["gems"], "when": {"os": "macos"}, "with": {"tool": "cocoapods", "spec": "Podfile", "bundler": true}}"#,
            ]),
        App(
            name: "swiftfin", flags: ["--platform", "iOS", "--team", "ABCDE12345"], container: ["-project", "Swiftfin.xcodeproj"], scheme: "Swiftfin",
            bundleID: "org.jellyfin.swiftfin", version: "1.0", build: "2"),
    ]

    /// The fake Xcode tools as a user gets them, `release rehearse-tools DIR`, outside the repository.
    static let fakeTools: String = {
        let folder = ReleaseBinary.temporaryDirectory() + "/rehearse-tools"
        let outcome = try? ReleaseBinary.run(["rehearse-tools", folder], in: ReleaseBinary.temporaryDirectory())
        precondition(outcome?.status == 0, "release rehearse-tools failed: \(outcome?.stderr ?? "")")
        return folder
    }()

    /// The app's head as its own repository on `main`, its `origin` on GitHub (`example/NAME`), which no test reaches:
    /// a rehearsal pushes to, and publishes on, its local stand-ins.
    static func repository(_ name: String) throws -> (directory: String, remote: String) {
        let head = try RealProjectsCommandTests.requireCorpus() + "/\(name)/head"
        let directory = ReleaseBinary.temporaryDirectory() + "/" + name
        try FileManager.default.copyItem(atPath: head, toPath: directory)
        try "Pods/\n".write(toFile: directory + "/.gitignore", atomically: true, encoding: .utf8)
        let remote = "https://github.com/example/\(name).git"
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try ReleaseBinary.git(["remote", "add", "origin", remote], in: directory)
        try commit("upstream head", in: directory)
        return (directory, remote)
    }

    static func commit(_ message: String, in directory: String) throws {
        // Whatever this machine's git ignores (Package.resolved here, in /etc/gitignore) is the project's: a runner
        // reads no system configuration.
        try ReleaseBinary.git(["-c", "core.excludesFile=/dev/null", "add", "-A"], in: directory)
        try ReleaseBinary.git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "-m", message], in: directory)
    }

    static func output(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: apps)
    func initWritesAPipelineThatShipsTheApp(app: App) throws {
        let (directory, _) = try Self.repository(app.name)
        let initialized = try ReleaseBinary.run(["init", "--yes"] + app.flags, in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("scheme:     \(app.scheme) (archives in Release)"), "\(initialized.stderr)")
        #expect(!initialized.stderr.contains("no team"), "\(initialized.stderr)")
        if app.flags.contains("sync") {
            #expect(
                initialized.stderr.contains(
                    "why: signing sync signs manually with what signing.sync installs: the archive sets CODE_SIGN_STYLE=Manual CODE_SIGN_IDENTITY=Apple Distribution PROVISIONING_PROFILE_SPECIFIER=release ${channel} $(PRODUCT_BUNDLE_IDENTIFIER) together"
                ), "\(initialized.stderr)")
        }
        if app.name == "duckduckgo-ios" {
            #expect(initialized.stderr.contains("the project's own specifier 'match AppStore com.duckduckgo.mobile.ios' names fastlane match's profiles"), "\(initialized.stderr)")
        }
        if let xcode = app.xcode {
            #expect(initialized.stderr.contains("note: Xcode \(xcode) is pinned by .github/workflows/"), "\(initialized.stderr)")
        }
        try Self.commit("Add the release pipeline", in: directory)
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        for generation in app.generation { #expect(text.contains(generation), "\(text)") }
        #expect(!text.contains(#""run": ["pod""#) && !text.contains(#""run": ["xcodegen""#) && !text.contains(#""run": ["bundle", "exec""#), "\(text)")
        #expect(text.contains(#""repo": "example/\#(app.name)""#), "\(text)")

        let validated = try ReleaseBinary.run(["validate"], in: directory)
        #expect(validated.status == 0, "\(validated.stderr)")

        // What a Mac would run, shown on Linux: no secret set, no Xcode, yet every command with its real arguments.
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/next"], in: directory)
        let dryRun = try ReleaseBinary.run(["run", "--dry-run", "--os", "macos"], in: directory)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let archive =
            (["xcodebuild"] + app.container + ["-scheme", app.scheme]).map(Self.quoted).joined(separator: " ")
            + " -configuration Release -destination \(app.destination)"
        #expect(dryRun.stderr.contains(archive), "\(archive)\n\(dryRun.stderr)")
        if app.flags.contains("sync") {
            #expect(dryRun.stderr.contains("◇ signing (signing.sync) would:"), "\(dryRun.stderr)")
            #expect(dryRun.stderr.contains("CODE_SIGN_STYLE=Manual"), "\(dryRun.stderr)")
            #expect(dryRun.stderr.contains("'PROVISIONING_PROFILE_SPECIFIER=release app-store $(PRODUCT_BUNDLE_IDENTIFIER)'"), "\(dryRun.stderr)")
        } else {
            #expect(dryRun.stderr.contains("-allowProvisioningUpdates -authenticationKeyPath '<private folder>/AuthKey_"), "\(dryRun.stderr)")
            #expect(dryRun.stderr.contains("(method app-store-connect (named for the installed Xcode), signingStyle automatic)"), "\(dryRun.stderr)")
        }
        #expect(
            dryRun.stderr.contains("dry run: placeholder values (masked) for secrets not set here: APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY, APP_STORE_CONNECT_KEY_ID"))
        #expect(dryRun.stderr.contains("dry run finished: nothing was changed"), "\(dryRun.stderr)")
        #expect(try Self.output(["git", "status", "--porcelain"], in: directory).isEmpty)

        // The rehearsal, as a hosted Mac runner would run it: no git identity, the fake Xcode tools.
        let environment = ReleaseWeekTests.runner(app.xcode.map { ["RELEASE_FAKE_XCODE": $0] } ?? [:])
        if app.flags.contains("sync") {
            // signing.sync only reads App Store Connect where CI is set: the certificate, bundle ids and profiles are
            // made once from a laptop (no CI), as README says, with the same stand-in the runs after it use.
            let laptop = try ReleaseBinary.run(
                ["run", "--rehearse", "--os", "macos", "--only", "signing"], in: directory, environment: ReleaseWeekTests.runner(["CI": "false"]))
            try #require(laptop.status == 0, "\(laptop.stderr)")
        }
        let first = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: environment)
        try #require(first.status == 0, "\(first.stderr)")
        let release = "\(app.bundleID) \(app.version) (\(app.build)) IOS COMPLETE"
        #expect(first.stderr.contains(release), "\(first.stderr)")
        let profile = app.flags.contains("sync") ? "release app-store \(app.bundleID)" : "iOS Team Store Provisioning Profile: \(app.bundleID)"
        #expect(first.stderr.contains("check-ipa │ \(app.bundleID) \(app.version) (\(app.build)), app-store profile '\(profile)'"), "\(first.stderr)")
        let group = app.flags.contains("--testflight-group") ? "Beta" : "Internal Testers"
        #expect(first.stderr.contains("\(group) (\(app.bundleID)): \(app.version) (\(app.build))"), "\(first.stderr)")
        #expect(try Self.output(["git", "status", "--porcelain"], in: directory).isEmpty)
        #expect(try Self.output(["git", "tag"], in: directory) == "v\(app.version)-\(app.build)\n")
        // A rehearsal pushes to a local stand-in of the remote, and publishes on the GitHub stand-in.
        let standIn = directory + "/.git/release-rehearsal/git/origin.git"
        #expect(try Self.output(["git", "ls-remote", standIn], in: directory).contains("refs/tags/v\(app.version)-\(app.build)"))
        #expect(try Self.output(["git", "ls-remote", standIn], in: directory).contains("refs/heads/release/next"))
        #expect(first.stderr.contains("✔ publish"), "\(first.stderr)")
        let log = try Self.output(["git", "log", "--format=%s"], in: directory)
        #expect(log == "Release \(app.version) (\(app.build))\nAdd the release pipeline\nupstream head\n")

        // The same release again: App Store Connect has the build, nothing is built or sent, nothing changes.
        let second = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: environment)
        try #require(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("bump │ already shipped: \(app.version) (\(app.build)) is in App Store Connect since"), "\(second.stderr)")
        #expect(second.stderr.contains("○ archive skipped: skip_if: ${steps.bump.outputs.shipped} is true"), "\(second.stderr)")
        #expect(second.stderr.contains("bytes received on upload URLs since start: 0 B"), "\(second.stderr)")
        #expect(second.stderr.contains("○ publish skipped: uses outputs of 'dsyms', which is skipped"), "\(second.stderr)")
        #expect(!second.stderr.contains("published release"), "\(second.stderr)")
        #expect(try Self.output(["git", "log", "--format=%s"], in: directory) == log)
        #expect(try Self.output(["git", "status", "--porcelain"], in: directory).isEmpty)
    }

    /// The other two apps signed with fastlane match in Release (`match AppStore $(PRODUCT_BUNDLE_IDENTIFIER)`):
    /// ownCloud (5 extensions) and Pocket Casts (6 extensions and a watch app), which the test above keeps on the API
    /// key, here with `--signing sync` through the fake xcodebuild, which looks each target's manual specifier up among
    /// the installed profiles of the project's team: the archive and export sign with what signing.sync made and
    /// installed, one profile per bundle id.
    @Test(arguments: ["owncloud-ios-app", "pocket-casts-ios"])
    func aMatchSignedAppShipsWithSigningSync(name: String) throws {
        let app = try #require(Self.apps.first { $0.name == name })
        let (directory, _) = try Self.repository(name)
        var flags: [String] = []
        var index = 0
        while index < app.flags.count {
            if app.flags[index] == "--signing" { index += 2 } else { flags.append(app.flags[index]); index += 1 }
        }
        let initialized = try ReleaseBinary.run(["init", "--yes", "--signing", "sync"] + flags, in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("the project's own specifier 'match AppStore \(app.bundleID)' names fastlane match's profiles"), "\(initialized.stderr)")
        try Self.commit("Add the release pipeline", in: directory)
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/next"], in: directory)
        let laptop = try ReleaseBinary.run(
            ["run", "--rehearse", "--os", "macos", "--only", "signing"], in: directory, environment: ReleaseWeekTests.runner(["CI": "false"]))
        try #require(laptop.status == 0, "\(laptop.stderr)")
        let run = try ReleaseBinary.run(["run", "--rehearse", "--os", "macos"], in: directory, environment: ReleaseWeekTests.runner())
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("'PROVISIONING_PROFILE_SPECIFIER=release app-store $(PRODUCT_BUNDLE_IDENTIFIER)'"), "\(run.stderr)")
        #expect(
            run.stderr.contains("check-ipa │ \(app.bundleID) \(app.version) (\(app.build)), app-store profile 'release app-store \(app.bundleID)'"),
            "\(run.stderr)")
        #expect(try Self.output(["git", "status", "--porcelain"], in: directory).isEmpty)
    }

    static func quoted(_ word: String) -> String {
        word.contains(" ") ? "'\(word)'" : word
    }
}
