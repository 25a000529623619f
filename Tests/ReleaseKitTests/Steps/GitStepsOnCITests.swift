import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps
@testable import ReleaseSupport

/// `git.commit`, `git.tag`, `git.push` and `gate.git` the way a hosted CI runner runs them: no git identity anywhere
/// (an empty `HOME`, no system configuration), and a detached HEAD with the branch in the CI's variables.
@Suite struct GitStepsOnCITests {
    /// A repository whose git knows no identity: every command runs with an empty `HOME`, `GIT_CONFIG_NOSYSTEM=1` and
    /// `GIT_CONFIG_GLOBAL=/dev/null`, and without the CI's and git's identity variables unless a test adds them.
    struct BareRunner {
        let path: String
        let home: String
        let remote: String
        let environment: [String: String]

        init() async throws {
            let root = TestTemporary.root + "/release-ci-git-\(UUID().uuidString)"
            path = root + "/work"
            home = root + "/home"
            remote = root + "/remote.git"
            for folder in [path, home] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            var environment = ProcessInfo.processInfo.environment.filter { name, _ in
                !name.hasPrefix("GITHUB_") && !name.hasPrefix("GITLAB_") && !name.hasPrefix("CI_") && !name.hasPrefix("GIT_")
                    && !["EMAIL", "CI", "RELEASE_BRANCH", "BRANCH_NAME"].contains(name)
            }
            environment["HOME"] = home
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
            self.environment = environment
            try "hello\n".write(toFile: path + "/README", atomically: true, encoding: .utf8)
            try await git("init", "-q", "-b", "main")
            try await git("add", "-A")
            try await git("-c", "user.name=Seed", "-c", "user.email=seed@example.com", "commit", "-q", "-m", "Initial commit")
            try await git("init", "-q", "--bare", remote)
            try await git("remote", "add", "origin", remote)
        }

        @discardableResult
        func git(_ arguments: String..., in directory: String? = nil) async throws -> String {
            let result = try await ProcessRunner.run(
                ProcessRequest(arguments: ["git"] + arguments, directory: directory ?? path, environment: environment)
            ) { _, _ in }
            guard result.succeeded else { throw StepError.failed("git \(arguments.joined(separator: " ")) exited with \(result.status)") }
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func context(_ extra: [String: String] = [:], dryRun: Bool = false, events: VersioningEventLog? = nil) -> StepContext {
            StepContext(
                stepID: "test", kind: "test", workingDirectory: path, environment: environment.merging(extra) { _, new in new },
                isDryRun: dryRun, sink: { events?.append($0) })
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
    }

    private func decode<S: Step>(_ type: S.Type, _ json: String) throws -> S {
        try S(options: decodeOptions(S.Options.self, json))
    }

    @Test(arguments: [
        ([:], "release <release@localhost>"),
        (["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"], "octocat <583231+octocat@users.noreply.github.com>"),
        (["GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_ID": "42", "CI_SERVER_HOST": "gitlab.example.com"], "jdoe <42-jdoe@users.noreply.gitlab.example.com>"),
    ])
    func commitAndTagWithoutAnyGitIdentity(ci: [String: String], expected: String) async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        // What git itself says here: no identity, which is what the steps must not need.
        await #expect(throws: StepError.self) { try await runner.git("commit", "-q", "--allow-empty", "-m", "plain git") }
        let config = try String(contentsOfFile: runner.path + "/.git/config", encoding: .utf8)

        try "3.0.1\n".write(toFile: runner.path + "/VERSION", atomically: true, encoding: .utf8)
        let commit = try decode(GitCommitStep.self, #"{"message": "Release 3.0.1 (7)", "paths": ["VERSION"]}"#)
        let log = VersioningEventLog()
        let committed = try await commit.run(in: runner.context(ci, events: log))
        #expect(committed["sha"] == .string(try await runner.git("rev-parse", "HEAD")))
        #expect(try await runner.git("log", "-1", "--format=%an <%ae>|%cn <%ce>") == "\(expected)|\(expected)")
        #expect(
            log.events.contains(.log("git has no identity configured here: '\(expected)' from \(GitIdentity.fallback(environment: ci).source), for this command only", .stdout)))

        let tag = try decode(GitTagStep.self, #"{"name": "v3.0.1-7", "message": "Release 3.0.1 (7)"}"#)
        try await tag.verify(in: runner.context(ci))
        _ = try await tag.run(in: runner.context(ci))
        #expect(try await runner.git("cat-file", "-t", "v3.0.1-7") == "tag")
        #expect(try await runner.git("for-each-ref", "--format=%(taggername) %(taggeremail)", "refs/tags/v3.0.1-7") == expected)

        // Nothing was written to git's configuration: the identity was for those commands only.
        #expect(try String(contentsOfFile: runner.path + "/.git/config", encoding: .utf8) == config)
        #expect(try FileManager.default.contentsOfDirectory(atPath: runner.home) == [])
        await #expect(throws: StepError.self) { try await runner.git("config", "--get", "user.email") }
    }

    @Test func theIdentityShowsInTheDryRunAndAConfiguredOneWins() async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        let actor = ["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"]
        let commit = try decode(GitCommitStep.self, #"{"message": "Release", "allow_empty": true}"#)
        let plan = try await commit.plan(in: runner.context(actor, dryRun: true))
        #expect(
            plan.effects.last
                == .command(
                    argv: ["git", "-c", "user.name=octocat", "-c", "user.email=583231+octocat@users.noreply.github.com", "commit", "-m", "Release", "--allow-empty"],
                    directory: nil))

        // An identity the user configured (here, the repository's) is git's, whatever the CI says.
        try await runner.git("config", "user.name", "Jane Doe")
        try await runner.git("config", "user.email", "jane@example.com")
        _ = try await commit.run(in: runner.context(actor))
        #expect(try await runner.git("log", "-1", "--format=%an <%ae>|%cn <%ce>") == "Jane Doe <jane@example.com>|Jane Doe <jane@example.com>")
        let lightweight = try decode(GitTagStep.self, #"{"name": "light"}"#)
        #expect(try await lightweight.plan(in: runner.context(actor, dryRun: true)).effects == [.command(argv: ["git", "tag", "light"], directory: nil)])

        // The step's author wins over both.
        let authored = try decode(GitCommitStep.self, #"{"message": "By the bot", "allow_empty": true, "author": "Release Bot <bot@example.com>"}"#)
        _ = try await authored.run(in: runner.context(actor))
        #expect(try await runner.git("log", "-1", "--format=%an <%ae>|%cn <%ce>") == "Release Bot <bot@example.com>|Release Bot <bot@example.com>")
        let tag = try decode(GitTagStep.self, #"{"name": "v1", "message": "One", "author": "Release Bot <bot@example.com>"}"#)
        _ = try await tag.run(in: runner.context(actor))
        #expect(try await runner.git("for-each-ref", "--format=%(taggername) %(taggeremail)", "refs/tags/v1") == "Release Bot <bot@example.com>")
    }

    @Test func anAuthorGitWouldMisreadIsRefusedBeforeAnythingRuns() throws {
        #expect(throws: StepError.invalidOption("author", "the email 'bot@example.com>\\nSigned-off-by: x <x@example.com' contains a line break")) {
            try decode(GitCommitStep.self, #"{"message": "m", "author": "Bot <bot@example.com>\nSigned-off-by: x <x@example.com>"}"#)
        }
        #expect(throws: StepError.invalidOption("author", "'bot@example.com' is not 'Name <email>'")) {
            try decode(GitTagStep.self, #"{"name": "v1", "message": "m", "author": "bot@example.com"}"#)
        }
        #expect(
            throws: StepError.invalidOption(
                "author", "a tag without 'message' is a lightweight tag, which records no author: add a message, or leave 'author' out")
        ) {
            try decode(GitTagStep.self, #"{"name": "v1", "author": "Bot <bot@example.com>"}"#)
        }
    }

    /// A tag on another commit is the record of another build: the error says so and what to do, never "force".
    @Test func aTagOnAnotherCommitSaysWhatHappenedAndWhatToDo() async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        let tag = try decode(GitTagStep.self, #"{"name": "v3.0.0-7", "message": "Release 3.0.0 (7)"}"#)
        _ = try await tag.run(in: runner.context())
        let tagged = try await runner.git("rev-parse", "HEAD")
        try await runner.git("-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "--allow-empty", "-m", "fix: crash on launch")
        let head = try await runner.git("rev-parse", "HEAD")
        var message = ""
        do {
            try await tag.verify(in: runner.context())
        } catch let error as StepError {
            message = "\(error)"
        }
        #expect(
            message
                == "tag 'v3.0.0-7' already exists on commit \(tagged.prefix(12)), not on \(head.prefix(12)) (HEAD): \(tagged.prefix(12)) was built before as this build, and tags never move; a new commit gets a new build number and so a new tag (let the bump give it the next build), or re-run on the tagged commit \(tagged.prefix(12)) to converge"
        )
        #expect(!message.contains("force"))
        // On the tagged commit the step converges.
        try await runner.git("checkout", "-q", tagged)
        try await tag.verify(in: runner.context())
    }

    /// GitLab CI checks out a detached HEAD with the branch in CI_COMMIT_BRANCH: `git push origin HEAD` fails there
    /// ("The destination you provided is not a full refname"), so the step names the branch in full.
    @Test func aDetachedHeadIsPushedToTheCIsBranch() async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        try await runner.git("checkout", "-q", "-b", "release/3.0.0")
        try await runner.git("push", "-q", "origin", "release/3.0.0")
        try await runner.git("checkout", "-q", "--detach")
        try await runner.git("branch", "-q", "-D", "release/3.0.0")
        try await runner.git("-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "--allow-empty", "-m", "Release 3.0.0 (8)")
        let head = try await runner.git("rev-parse", "HEAD")
        let gitlab = ["CI_COMMIT_BRANCH": "release/3.0.0", "GITLAB_CI": "true"]
        // What git alone does with the step's old command.
        await #expect(throws: StepError.self) { try await runner.git("push", "origin", "HEAD") }

        let push = try decode(GitPushStep.self, #"{}"#)
        #expect(
            try await push.plan(in: runner.context(gitlab, dryRun: true)).effects
                == [.command(argv: ["git", "push", "origin", "HEAD:refs/heads/release/3.0.0"], directory: nil)])
        let pushed = try await push.run(in: runner.context(gitlab))
        #expect(pushed["refs"] == .list([.string("HEAD:refs/heads/release/3.0.0")]))
        #expect(try await runner.git("rev-parse", "refs/heads/release/3.0.0", in: runner.remote) == head)

        // A ref naming the branch (the starter's `${git.branch}`) goes the same way; a tag stays a tag.
        try await runner.git("-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "--allow-empty", "-m", "Release 3.0.0 (9)")
        try await runner.git("tag", "v3.0.0-9")
        let named = try decode(GitPushStep.self, #"{"refs": ["release/3.0.0", "v3.0.0-9"]}"#)
        let namedResult = try await named.run(in: runner.context(gitlab))
        #expect(namedResult["refs"] == .list([.string("HEAD:refs/heads/release/3.0.0"), .string("v3.0.0-9")]))
        let next = try await runner.git("rev-parse", "HEAD")
        #expect(try await runner.git("rev-parse", "refs/heads/release/3.0.0", in: runner.remote) == next)
        #expect(try await runner.git("rev-parse", "refs/tags/v3.0.0-9^{commit}", in: runner.remote) == next)

        // Without a CI variable naming the branch, preflight leaves it to the run (a step before may check one out)
        // and the run says what to do instead of git's riddle.
        #expect(try await push.plan(in: runner.context(dryRun: true)).effects == [.command(argv: ["git", "push", "origin", "HEAD"], directory: nil)])
        await #expect(
            throws: StepError.failed(
                "HEAD is detached and no CI variable names its branch (CI_COMMIT_BRANCH, GITHUB_REF_NAME…): name what to push in 'refs', for example \"HEAD:refs/heads/main\""
            )
        ) { try await push.run(in: runner.context()) }
        // A pull request's ref is GitHub's, never a branch to push to.
        await #expect(throws: StepError.self) {
            try await push.run(in: runner.context(["GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF_NAME": "42/merge"]))
        }
    }

    /// A checkout on another local branch whose CI names a branch that has no local branch: a ref naming the CI's
    /// branch pushes HEAD to it.
    @Test func aRefNamingTheCIsBranchWithoutALocalBranchPushesHead() async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        try await runner.git("checkout", "-q", "-b", "ci-checkout")
        let push = try decode(GitPushStep.self, #"{"refs": ["release/4.0.0"]}"#)
        let pushed = try await push.run(in: runner.context(["CI_COMMIT_BRANCH": "release/4.0.0"]))
        #expect(pushed["refs"] == .list([.string("HEAD:refs/heads/release/4.0.0")]))
        #expect(try await runner.git("rev-parse", "refs/heads/release/4.0.0", in: runner.remote) == (try await runner.git("rev-parse", "HEAD")))
    }

    @Test func theGitGateSeesTheCIsBranchWhenHeadIsDetached() async throws {
        let runner = try await BareRunner()
        defer { runner.remove() }
        try await runner.git("checkout", "-q", "--detach")
        let sha = try await runner.git("rev-parse", "HEAD")
        let gate = try await GatePipelines.runGate(
            "gate.git", ["branch": "release/*"], directory: runner.path, environment: runner.environment.merging(["CI_COMMIT_BRANCH": "release/3.0.0"]) { _, new in new })
        #expect(gate.statuses == ["gate=ok"])
        #expect(gate.step("gate")?.outputs == ["branch": .string("release/3.0.0"), "sha": .string(sha)])
        let other = try await GatePipelines.runGate(
            "gate.git", ["branch": "release/*"], directory: runner.path, environment: runner.environment.merging(["CI_COMMIT_BRANCH": "main"]) { _, new in new })
        #expect(other.step("gate")?.message == "branch 'main' (HEAD detached, the branch from the CI) does not match 'release/*'")
    }
}
