import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps

@Suite struct GitGateStepTests {
    @Test func acceptsACleanReleaseBranchWithAFreeTag() async throws {
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        try await repository.git("checkout", "-q", "-b", "release/3.0.1")
        try GatePipelines.write("ignored\n", "build/output.log", in: repository.path)
        let result = try await GatePipelines.runGate("gate.git", ["branch": "release/*", "tag": "v3.0.1", "ignore": ["build/*"]], directory: repository.path)
        #expect(result.statuses == ["gate=ok"])
        let sha = try await repository.git("rev-parse", "HEAD")
        #expect(result.step("gate")?.outputs == ["branch": .string("release/3.0.1"), "sha": .string(sha)])
    }

    @Test func rejectsADirtyWorkingTreeNamingEveryPath() async throws {
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        try GatePipelines.write("changed\n", "README", in: repository.path)
        try GatePipelines.write("new\n", "notes/todo.txt", in: repository.path)
        try GatePipelines.write("ignored\n", "build/a.o", in: repository.path)
        try GatePipelines.write("staged\n", "staged.txt", in: repository.path)
        try await repository.git("add", "staged.txt")
        let result = try await GatePipelines.runGate("gate.git", ["ignore": ["build/*"]], directory: repository.path)
        let root = try await repository.git("rev-parse", "--show-toplevel")
        #expect(result.statuses == ["gate=rejected"])
        #expect(
            result.step("gate")?.message
                == "the working tree '\(root)' is not clean: 3 changed paths: ' M README', 'A  staged.txt', '?? notes/todo.txt'; commit them, or list them in 'ignore'")
        let unchecked = try await GatePipelines.runGate("gate.git", ["clean": false], directory: repository.path)
        #expect(unchecked.statuses == ["gate=ok"])
    }

    @Test func rejectsABranchNotMatchingThePattern() async throws {
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.git", ["branch": "release/*"], directory: repository.path)
        #expect(result.step("gate")?.message == "branch 'main' does not match 'release/*'")
        try await repository.git("checkout", "-q", "--detach")
        let detached = try await GatePipelines.runGate("gate.git", ["branch": "release/*"], directory: repository.path)
        let root = try await repository.git("rev-parse", "--show-toplevel")
        #expect(detached.step("gate")?.message == "HEAD in '\(root)' is detached and no CI variable names its branch, expected a branch matching 'release/*'")
    }

    @Test func rejectsATagTakenLocallyOrOnTheRemote() async throws {
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        let remote = TestTemporary.root + "/release-remote-\(UUID().uuidString).git"
        defer { try? FileManager.default.removeItem(atPath: remote) }
        try await repository.git("init", "-q", "--bare", remote)
        try await repository.git("remote", "add", "origin", remote)
        try await repository.git("tag", "v3.0.0")
        try await repository.git("push", "-q", "origin", "v3.0.0")
        try await repository.git("tag", "-d", "v3.0.0")
        try await repository.git("tag", "v3.0.1")
        let sha = try await repository.git("rev-parse", "HEAD")
        let root = try await repository.git("rev-parse", "--show-toplevel")

        let local = try await GatePipelines.runGate("gate.git", ["tag": "v3.0.1", "remote": "origin"], directory: repository.path)
        #expect(local.step("gate")?.message == "tag 'v3.0.1' already exists in '\(root)' (at \(sha.prefix(12)))")
        let remoteTaken = try await GatePipelines.runGate("gate.git", ["tag": "v3.0.0", "remote": "origin"], directory: repository.path)
        #expect(remoteTaken.step("gate")?.message == "tag 'v3.0.0' already exists on remote 'origin' (at \(sha.prefix(12)))")
        let free = try await GatePipelines.runGate("gate.git", ["tag": "v3.0.2", "remote": "origin"], directory: repository.path)
        #expect(free.statuses == ["gate=ok"])
    }

    @Test func failsOutsideARepositoryAndChecksOptions() async throws {
        let directory = TestPipelines.temporaryDirectory()
        let result = try await GatePipelines.runGate("gate.git", ["branch": "main"], directory: directory)
        #expect(result.step("gate")?.message == "'\(directory)' is not in a git repository")
        let repository = try await VersioningGitRepository()
        defer { repository.remove() }
        let noRemote = try await GatePipelines.runGate("gate.git", ["tag": "v1", "remote": "upstream"], directory: repository.path)
        #expect(noRemote.statuses == ["gate=failed"])
        #expect(noRemote.step("gate")?.message == "'git remote get-url upstream' exited with status 2: error: No such remote 'upstream'")
        #expect(throws: StepError.invalidOption("tag", "'v 1' is not a valid tag name")) { try GitGateStep(options: .with { $0.tag = "v 1" }) }
        #expect(throws: StepError.invalidOption("remote", "'remote' checks 'tag', which is not set")) { try GitGateStep(options: .with { $0.remote = "origin" }) }
    }

    @Test func ignorePatternsCoverGlobsAndFolders() {
        #expect(GitGateStep.ignores("build/*", "build/a/b.o"))
        #expect(GitGateStep.ignores("build/", "build/a/b.o"))
        #expect(GitGateStep.ignores("*.xcresult", "out/Test.xcresult"))
        #expect(!GitGateStep.ignores("build/", "Sources/build.swift"))
        #expect(!GitGateStep.ignores("build", "build/a.o"))
    }

    @Test func parsesPorcelainWithRenames() {
        let text = "R  new name.txt\0old name.txt\0 M a\0?? b c\0"
        #expect(
            GitGateStep.changes(fromPorcelain: text) == [
                .init(status: "R ", path: "new name.txt"), .init(status: " M", path: "a"), .init(status: "??", path: "b c"),
            ])
    }
}
