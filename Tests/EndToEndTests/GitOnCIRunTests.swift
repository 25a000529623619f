import Foundation
import Testing

/// `release run` committing, tagging and pushing the way a hosted CI runner runs it: no git identity anywhere (an
/// empty `HOME`, `GIT_CONFIG_NOSYSTEM=1`, no global configuration), `CI=true`, and on GitLab a detached HEAD with
/// the branch in `CI_COMMIT_BRANCH`.
@Suite struct GitOnCIRunTests {
    static let pipeline = """
        {"version": 1, "name": "ci-git",
         "steps": [
           {"id": "write", "uses": "shell", "with": {"run": ["sh", "-c", "echo 3.0.1 > VERSION"]}},
           {"id": "commit", "uses": "git.commit", "needs": ["write"], "with": {"message": "Release 3.0.1 (7)", "paths": ["VERSION"]}},
           {"id": "tag", "uses": "git.tag", "needs": ["commit"], "with": {"name": "v3.0.1-7", "message": "Release 3.0.1 (7)"}},
           {"id": "push", "uses": "git.push", "needs": ["tag"], "with": {"refs": ["${git.branch}", "v3.0.1-7"]}}
         ]}
        """

    /// A checkout with a bare `origin` and an empty home, seeded without touching any git configuration.
    struct Checkout {
        let root: String
        var path: String { root + "/work" }
        var home: String { root + "/home" }
        var remote: String { root + "/remote.git" }
        /// The runner's environment: no git identity, no system or global configuration.
        var environment: [String: String] {
            ["HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "CI": "true"]
        }

        init(branch: String, detached: Bool) throws {
            root = ReleaseBinary.temporaryDirectory()
            for folder in [root + "/work", root + "/home"] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try git("init", "-q", "--bare", root + "/remote.git")
            try git("init", "-q", "-b", branch)
            try "0.0.0\n".write(toFile: path + "/VERSION", atomically: true, encoding: .utf8)
            try Self.pipelineText.write(toFile: path + "/ci.json", atomically: true, encoding: .utf8)
            try git("add", "-A")
            try git("-c", "user.name=Seed", "-c", "user.email=seed@example.com", "commit", "-q", "-m", "Initial commit")
            try git("remote", "add", "origin", remote)
            try git("push", "-q", "origin", branch)
            if detached {
                try git("checkout", "-q", "--detach")
                try git("branch", "-q", "-D", branch)
            }
        }

        static let pipelineText = GitOnCIRunTests.pipeline

        @discardableResult
        func git(_ arguments: String..., in directory: String? = nil) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory ?? path)
            var base = ProcessInfo.processInfo.environment
            for name in base.keys where name.hasPrefix("GIT_") || name == "EMAIL" { base[name] = nil }
            process.environment = base.merging(environment) { _, new in new }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["git": arguments]) }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test(arguments: [
        ("GitHub Actions", false, ["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"], "octocat <583231+octocat@users.noreply.github.com>"),
        ("no CI actor", false, [:], "release <release@localhost>"),
        (
            "GitLab CI, detached", true,
            [
                "GITLAB_CI": "true", "CI_COMMIT_BRANCH": "release/3.0.1", "GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_ID": "42",
                "CI_SERVER_HOST": "gitlab.example.com",
            ],
            "jdoe <42-jdoe@users.noreply.gitlab.example.com>"
        ),
    ])
    func commitTagAndPushWithNoGitIdentity(name: String, detached: Bool, ci: [String: String], identity: String) throws {
        let checkout = try Checkout(branch: "release/3.0.1", detached: detached)
        defer { checkout.remove() }
        // The runner as it is: plain git cannot commit here.
        #expect(throws: (any Error).self) { try checkout.git("commit", "--allow-empty", "-m", "plain git") }
        let config = try String(contentsOfFile: checkout.path + "/.git/config", encoding: .utf8)

        let environment = checkout.environment.merging(ci) { _, new in new }
        let outcome = try ReleaseBinary.run(["run", "ci.json"], in: checkout.path, environment: environment)
        #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("unable to auto-detect"), "\(outcome.stderr)")
        #expect(try checkout.git("log", "-1", "--format=%s|%an <%ae>|%cn <%ce>") == "Release 3.0.1 (7)|\(identity)|\(identity)")
        #expect(try checkout.git("for-each-ref", "--format=%(taggername) %(taggeremail)", "refs/tags/v3.0.1-7") == identity)
        let head = try checkout.git("rev-parse", "HEAD")
        #expect(try checkout.git("rev-parse", "refs/heads/release/3.0.1", in: checkout.remote) == head, "\(outcome.stderr)")
        #expect(try checkout.git("rev-parse", "refs/tags/v3.0.1-7^{commit}", in: checkout.remote) == head)
        if detached { #expect(outcome.stderr.contains("HEAD:refs/heads/release/3.0.1"), "\(outcome.stderr)") }
        // Never a configuration write: not the repository's, not a global one.
        #expect(try String(contentsOfFile: checkout.path + "/.git/config", encoding: .utf8) == config)
        #expect(!FileManager.default.fileExists(atPath: checkout.home + "/.gitconfig"))
        #expect(!FileManager.default.fileExists(atPath: checkout.home + "/.config/git"))
    }
}
