import Foundation
import Testing

/// Running the same release again bumps once and leaves the clone clean; a failed run says what it left and how
/// to resume; a rehearsal needs no real secret (issue 23, item 3).
@Suite struct ConvergeTests {
    /// bump → build (fails when FAIL_BUILD=1) → commit → tag → Slack, on the demo app (3.0.0 (4146)).
    private static let pipeline = #"""
        {
          "version": 1,
          "name": "converge",
          "steps": [
            {"id": "bump", "uses": "version.bump", "with": {"project": "Fixtures/DemoApp", "part": "patch", "build": "increment"}},
            {"id": "build", "uses": "shell", "needs": ["bump"], "with": {"run": ["test", "${env.FAIL_BUILD:-0}", "=", "0"]}},
            {"id": "commit", "uses": "git.commit", "needs": ["build"],
             "with": {"message": "Bump version to ${steps.bump.outputs.version} (${steps.bump.outputs.build})", "paths": "${steps.bump.outputs.files}"}},
            {"id": "tag", "uses": "git.tag", "needs": ["commit"],
             "with": {"name": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}", "message": "Release ${steps.bump.outputs.version}"}},
            {"id": "announce", "uses": "notify.slack", "needs": ["tag"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}"}}
          ]
        }
        """#

    /// The demo on branch `main` (no branch names a version), with the pipeline beside it.
    private static func checkout() throws -> String {
        let directory = try ReleaseBinary.prepareDemo()
        try ReleaseBinary.git(["checkout", "-q", "-b", "main"], in: directory)
        try pipeline.write(toFile: directory + "/converge.json", atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["add", "converge.json"], in: directory)
        try ReleaseBinary.git(["commit", "-q", "-m", "Add the pipeline"], in: directory)
        return directory
    }

    private static func git(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func version(in directory: String) throws -> String {
        try String(contentsOfFile: directory + "/Fixtures/DemoApp/Config/Version.xcconfig", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("//") }.joined(separator: "; ")
    }

    /// `SLACK_WEBHOOK_URL` is never set here: the rehearsal stands in for it.
    private static let environment = ["SLACK_WEBHOOK_URL": ""]

    @Test func twoRehearsalsBumpOnceAndLeaveTheCloneClean() throws {
        let directory = try Self.checkout()
        let first = try ReleaseBinary.run(["run", "converge.json", "--rehearse"], in: directory, environment: Self.environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.hasPrefix(
                """
                rehearsal: GitHub, App Store Connect, Sentry, HTTP uploads and Slack webhooks go to local stand-ins on 127.0.0.1, git pushes to local bare repositories; nothing leaves the machine
                rehearsal: local changes are real: the version bump, commits, tags and files the steps write happen in this checkout
                rehearsal: placeholder values (masked) for secrets that are not set: SLACK_WEBHOOK_URL

                """), "\(first.stderr)")
        #expect(!first.stderr.contains("rehearsal.invalid/slack_webhook_url/"), "the placeholder is masked: \(first.stderr)")
        #expect(first.stderr.contains("rehearsal: local HTTP endpoint ") && first.stderr.contains("  POST /"), "Slack reached the stand-in: \(first.stderr)")
        #expect(try Self.version(in: directory) == "MARKETING_VERSION = 3.0.1; CURRENT_PROJECT_VERSION = 4147")
        #expect(try Self.git(["status", "--porcelain"], in: directory) == "")
        #expect(try Self.git(["log", "-1", "--format=%s"], in: directory) == "Bump version to 3.0.1 (4147)")

        let second = try ReleaseBinary.run(["run", "converge.json", "--rehearse"], in: directory, environment: Self.environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("already at 3.0.1 (4147) in HEAD's commit "), "\(second.stderr)")
        #expect(second.stderr.contains("tag 'v3.0.1-4147' already names this commit"), "\(second.stderr)")
        #expect(try Self.version(in: directory) == "MARKETING_VERSION = 3.0.1; CURRENT_PROJECT_VERSION = 4147")
        #expect(try Self.git(["status", "--porcelain"], in: directory) == "")
        #expect(try Self.git(["rev-list", "--count", "HEAD"], in: directory) == "3", "one bump commit")
        #expect(try Self.git(["tag", "--list"], in: directory) == "v3.0.1-4147")
    }

    @Test func aFailedRunSaysHowToResumeAndAPlainReRunBumpsOnce() throws {
        let directory = try Self.checkout()
        let failed = try ReleaseBinary.run(
            ["run", "converge.json", "--rehearse"], in: directory,
            environment: Self.environment.merging(["FAIL_BUILD": "1"]) { _, new in new })
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(
            failed.stderr.contains(
                """

                left changed by the steps that finished:
                  bump (version.bump): Fixtures/DemoApp/Config/Version.xcconfig

                """), "\(failed.stderr)")
        #expect(
            failed.stderr.hasSuffix(
                "to resume once the cause is fixed (steps that succeeded are skipped): release run converge.json --rehearse --resume\n"), "\(failed.stderr)")
        #expect(try Self.git(["status", "--porcelain"], in: directory) == "M Fixtures/DemoApp/Config/Version.xcconfig")

        let again = try ReleaseBinary.run(["run", "converge.json", "--rehearse"], in: directory, environment: Self.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("already at 3.0.1 (4147) in the working tree (not committed yet): kept"), "\(again.stderr)")
        #expect(!again.stderr.contains("to resume"))
        #expect(try Self.version(in: directory) == "MARKETING_VERSION = 3.0.1; CURRENT_PROJECT_VERSION = 4147")
        #expect(try Self.git(["status", "--porcelain"], in: directory) == "")
        #expect(try Self.git(["log", "-1", "--format=%s"], in: directory) == "Bump version to 3.0.1 (4147)")
        #expect(try Self.git(["tag", "--list"], in: directory) == "v3.0.1-4147")
    }
}
