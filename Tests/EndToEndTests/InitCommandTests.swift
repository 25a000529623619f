import Foundation
import Testing

/// Issue 16's first ten minutes: in a copy of Fixtures/DemoApp as its own git repository,
/// `release init --yes && release validate && release run --dry-run` works.
@Suite struct InitCommandTests {
    /// Fixtures/DemoApp copied into a new git repository with a GitHub remote.
    static func demoRepository() throws -> String {
        let directory = ReleaseBinary.temporaryDirectory() + "/DemoApp"
        try FileManager.default.copyItem(at: ReleaseBinary.root.appendingPathComponent("Fixtures/DemoApp"), to: URL(fileURLWithPath: directory))
        try ReleaseBinary.git(["init", "-q", "-b", "main"], in: directory)
        try ReleaseBinary.git(["remote", "add", "origin", "git@github.com:acme/demo-ios.git"], in: directory)
        try ReleaseBinary.git(["add", "-A"], in: directory)
        try ReleaseBinary.git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "-m", "initial"], in: directory)
        return directory
    }

    @Test func initValidateAndDryRunWorkInAFreshRepository() throws {
        let directory = try Self.demoRepository()
        let initialized = try ReleaseBinary.run(["init", "--yes"], in: directory)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("app:        Demo (iOS, com.example.demo)\n"), "\(initialized.stderr)")
        #expect(initialized.stderr.contains("GitHub:     acme/demo-ios"))
        let text = try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8)
        #expect(text.contains(#""$schema": "../release.schema.json""#))
        #expect(text.contains(#""repo": "acme/demo-ios""#))
        #expect(
            text.contains(
                #"{"project": "Demo.xcodeproj", "app": "${app}", "part": "build", "build": "increment", "bundle_id": "${bundle_id}", "key_id": "${env.APP_STORE_CONNECT_KEY_ID}""#
            ), "\(text)")
        #expect(text.contains(#""skip_if": "${steps.bump.outputs.shipped}""#), "\(text)")
        #expect(text.contains(#""release": {"when": {"branch": "release/**"}"#), "\(text)")
        #expect(text.contains(#""scheme": "Demo""#))
        #expect(FileManager.default.fileExists(atPath: directory + "/release.schema.json"))
        #expect(try String(contentsOfFile: directory + "/.gitignore", encoding: .utf8).contains("/build/\n"))
        try ReleaseBinary.git(["add", "-A"], in: directory)
        try ReleaseBinary.git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "-m", "Add the release pipeline"], in: directory)

        let validated = try ReleaseBinary.run(["validate"], in: directory)
        #expect(validated.status == 0, "\(validated.stderr)")
        let dryRun = try ReleaseBinary.run(["run", "--dry-run"], in: directory)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        // On main the adhoc profile numbers a tester build: the build number moves, the version stays.
        #expect(dryRun.stderr.contains("profile: adhoc"), "\(dryRun.stderr)")
        #expect(dryRun.stderr.contains("CURRENT_PROJECT_VERSION '"), "\(dryRun.stderr)")
        #expect(!dryRun.stderr.contains("MARKETING_VERSION '3.0.0' ->"), "\(dryRun.stderr)")
        #expect(try String(contentsOfFile: directory + "/Config/Version.xcconfig", encoding: .utf8).contains("MARKETING_VERSION = 3.0.0"))

        // Never overwrites.
        try "{}".write(toFile: directory + "/Pipelines/release.json", atomically: true, encoding: .utf8)
        let again = try ReleaseBinary.run(["init", "--yes"], in: directory)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists; nothing was written"))
        #expect(try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8) == "{}")
    }

    @Test func withoutATerminalItAsksForYesAndWritesNothing() throws {
        let directory = try Self.demoRepository()
        let outcome = try ReleaseBinary.run(["init"], in: directory)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("pass --yes"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/Pipelines/release.json"))
    }

    @Test func runWithoutAPipelineSuggestsInit() throws {
        let outcome = try ReleaseBinary.run(["run"], in: ReleaseBinary.temporaryDirectory())
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("Pipelines/release.json: error: no such file"))
        #expect(outcome.stderr.contains("'release init'"), "\(outcome.stderr)")
    }
}
