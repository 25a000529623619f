import Foundation
import Testing

/// Issue 34's "done means": a team's release week on real apps of `../shared/real-projects`, played the way CI runs it.
/// A laptop (with a git identity) writes the starter and cuts `release/X.Y` with `release bump minor`; then every run is
/// a runner's: no git identity anywhere (an empty `HOME`, `GIT_CONFIG_NOSYSTEM=1`), `CI=true`, the fake Xcode tools of
/// `release rehearse-tools` first on `PATH`, a GitHub remote (the rehearsal stands in for GitHub and App Store Connect,
/// so the release is really published and uploaded, and kept between runs).
///
/// - the first rehearsal builds the cut's build; the second builds and sends nothing and exits 0;
/// - a fix commit is a new build of the same version (never a new marketing version), and a re-run builds nothing;
/// - the hotfix path: `release bump patch` from the shipped tag cuts `release/X.Y.1`, whose build goes on counting;
/// - a GitLab job (detached HEAD, `CI_COMMIT_BRANCH`) releases and pushes the branch by name;
/// - a plain `release run` on Linux refuses before it changes anything, naming `--os macos` and the macOS runner.
@Suite(.needsShared(.realProjects)) struct ReleaseWeekTests {
    struct App: Sendable, CustomTestStringConvertible {
        var name: String
        var flags: [String] = []
        var bundleID: String
        /// The version and build the laptop's `release bump minor` cuts.
        var version: String
        var build: Int
        /// Another app of the project that must keep its version (`version.bump` moves the app being released only).
        var other: (target: String, version: String)?
        var testDescription: String { name }
    }

    static let apps: [App] = [
        // Per-target literals in the pbxproj; a tvOS app beside the iOS one, released on its own.
        App(
            name: "swiftfin", flags: ["--platform", "iOS", "--team", "ABCDE12345"], bundleID: "org.jellyfin.swiftfin", version: "1.1", build: 2, other: ("Swiftfin tvOS", "1.4.1")),
        // An xcconfig include chain, no version in the pbxproj; signed manually with fastlane match (init proposes
        // --signing files): kept on the API key, so the archive overrides style, identity and specifier together.
        App(name: "duckduckgo-ios", flags: ["--signing", "api-key"], bundleID: "com.duckduckgo.mobile.ios", version: "7.158.0", build: 6),
        // Project-level settings three apps inherit (they share the one definition, so they move together).
        App(name: "keepassium", flags: ["--target", "KeePassium"], bundleID: "com.keepassium.ios", version: "2.7", build: 174),
    ]

    /// The laptop's identity: a person's machine has one.
    static let laptop = [
        "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com", "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
    ]

    /// A hosted runner's environment: no identity, an empty home, CI set, the fake Xcode tools first on PATH.
    static func runner(_ extra: [String: String] = [:]) -> [String: String] {
        let home = ReleaseBinary.temporaryDirectory()
        return [
            "HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "CI": "true",
            "PATH": InitRealProjectsTests.fakeTools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "RELEASE_FAKE_RELEASE": ReleaseBinary.path, "RELEASE_FAKE_STATE": ReleaseBinary.temporaryDirectory(),
        ].merging(extra) { _, new in new }
    }

    static func rehearse(_ directory: String, _ extra: [String: String] = [:]) throws -> ReleaseBinary.Outcome {
        try ReleaseBinary.run(["run", "--rehearse", "--os", "macos", "--log-format", "plain"], in: directory, environment: runner(extra))
    }

    static func log(_ directory: String) throws -> String {
        try InitRealProjectsTests.output(["git", "log", "--format=%s"], in: directory)
    }

    static func laptopCommit(_ message: String, file: String, in directory: String) throws {
        try "\(message)\n".write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["add", file], in: directory)
        try ReleaseBinary.git(["-c", "user.email=dev@example.com", "-c", "user.name=Dev", "commit", "-q", "-m", message], in: directory)
    }

    /// The rehearsal's App Store Connect and GitHub stand-ins are kept in the checkout between runs: what they say of
    /// uploads since this run started, and the build that was uploaded.
    static func expectBuilt(_ outcome: ReleaseBinary.Outcome, _ app: App, version: String, build: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("\(app.bundleID) \(version) (\(build)) IOS COMPLETE"), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("✔ archive"), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(!outcome.stderr.contains("bytes received on upload URLs since start: 0 B"), "\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    static func expectNothingBuilt(_ outcome: ReleaseBinary.Outcome, _ app: App, version: String, build: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(
            outcome.stderr.contains("bump │ already shipped: \(version) (\(build)) is in App Store Connect since"), "\(outcome.stderr)",
            sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("○ archive skipped: skip_if: ${steps.bump.outputs.shipped} is true"), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(!outcome.stderr.contains("✔ upload"), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("bytes received on upload URLs since start: 0 B"), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("tag │ tag 'v\(version)-\(build)' already names this commit"), "\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    @Test(arguments: apps)
    func aReleaseWeekAsCIRunsIt(app: App) throws {
        let (directory, _) = try InitRealProjectsTests.repository(app.name)
        try ReleaseBinary.git(["remote", "set-url", "origin", "https://github.com/example/\(app.name).git"], in: directory)
        // The laptop: the starter, then the cut.
        let initialized = try ReleaseBinary.run(["init", "--yes"] + app.flags, in: directory)
        try #require(initialized.status == 0, "\(initialized.stderr)")
        try InitRealProjectsTests.commit("Add the release pipeline", in: directory)
        let cut = try ReleaseBinary.run(["bump", "minor", "--yes"], in: directory, environment: Self.laptop)
        try #require(cut.status == 0, "\(cut.stderr)")
        let branch = "release/\(app.version)"
        #expect(try InitRealProjectsTests.output(["git", "rev-parse", "--abbrev-ref", "HEAD"], in: directory) == branch + "\n")
        if let other = app.other {
            let versions = try ReleaseBinary.run(["version", "--json"], in: directory)
            #expect(versions.stdout.contains(#""target" : "\#(other.target)",\#n      "version" : "\#(other.version)""#), "\(versions.stdout)")
        }

        // CI on the cut: the cut's build, published; then the same commit again: nothing built, nothing sent.
        let first = try Self.rehearse(directory)
        Self.expectBuilt(first, app, version: app.version, build: app.build)
        #expect(try InitRealProjectsTests.output(["git", "tag"], in: directory) == "v\(app.version)-\(app.build)\n")
        let afterFirst = try Self.log(directory)
        let second = try Self.rehearse(directory)
        Self.expectNothingBuilt(second, app, version: app.version, build: app.build)
        #expect(try Self.log(directory) == afterFirst)
        #expect(try InitRealProjectsTests.output(["git", "status", "--porcelain"], in: directory).isEmpty)

        // A fix on the release branch: a new build of the same version, then nothing again.
        try Self.laptopCommit("fix: crash on launch", file: "FIX.txt", in: directory)
        let fix = try Self.rehearse(directory)
        Self.expectBuilt(fix, app, version: app.version, build: app.build + 1)
        #expect(fix.stderr.contains("bump │ on \(branch)") || fix.stderr.contains("-> \(app.version) (\(app.build + 1))"), "\(fix.stderr)")
        #expect(try Self.log(directory).hasPrefix("Release \(app.version) (\(app.build + 1))\nfix: crash on launch\n"))
        Self.expectNothingBuilt(try Self.rehearse(directory), app, version: app.version, build: app.build + 1)

        // The hotfix path: from the shipped tag, `release bump patch` cuts release/X.Y.1; its build goes on counting.
        try ReleaseBinary.git(["checkout", "-q", "v\(app.version)-\(app.build + 1)"], in: directory)
        let hotfixCut = try ReleaseBinary.run(["bump", "patch", "--yes"], in: directory, environment: Self.laptop)
        try #require(hotfixCut.status == 0, "\(hotfixCut.stderr)")
        let hotfix = app.version.split(separator: ".").count == 2 ? app.version + ".1" : app.version.dropLast(1) + "1"
        #expect(try InitRealProjectsTests.output(["git", "rev-parse", "--abbrev-ref", "HEAD"], in: directory) == "release/\(hotfix)\n")
        Self.expectBuilt(try Self.rehearse(directory), app, version: String(hotfix), build: app.build + 2)

        // GitLab: a detached HEAD at the branch's commit, the branch in CI_COMMIT_BRANCH.
        try Self.laptopCommit("fix: the hotfix's own fix", file: "FIX.txt", in: directory)
        try ReleaseBinary.git(["checkout", "-q", "--detach"], in: directory)
        let gitlab = try Self.rehearse(directory, ["GITLAB_CI": "true", "CI_COMMIT_BRANCH": "release/\(hotfix)", "CI_COMMIT_REF_NAME": "release/\(hotfix)"])
        Self.expectBuilt(gitlab, app, version: String(hotfix), build: app.build + 3)
        #expect(gitlab.stderr.contains("profile: release"), "\(gitlab.stderr)")
        let standIn = directory + "/.git/release-rehearsal/git/origin.git"
        let head = try InitRealProjectsTests.output(["git", "rev-parse", "HEAD"], in: directory)
        #expect(
            try InitRealProjectsTests.output(["git", "ls-remote", standIn, "refs/heads/release/\(hotfix)"], in: directory).hasPrefix(head.trimmingCharacters(in: .newlines)),
            "the branch is pushed by name at the commit the detached job made")

        // A plain run on Linux cannot build: it refuses before it changes anything.
        let before = try Self.log(directory)
        let linux = try ReleaseBinary.run(["run"], in: directory, environment: Self.runner(["CI_COMMIT_BRANCH": "release/\(hotfix)"]))
        #expect(linux.status == 64, "\(linux.stderr)")
        #expect(linux.stderr.contains("this run cannot build here: 'archive', 'export' run on macos only"), "\(linux.stderr)")
        #expect(linux.stderr.contains("'release run --dry-run --os macos'"), "\(linux.stderr)")
        #expect(try Self.log(directory) == before)
        #expect(try InitRealProjectsTests.output(["git", "status", "--porcelain"], in: directory).isEmpty)
    }
}
