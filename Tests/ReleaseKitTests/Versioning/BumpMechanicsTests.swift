import Foundation
import Testing

@testable import ReleaseSupport
@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct BumpMechanicsTests {
        @Test func unifiedDiff() {
            let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
            let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n"
            #expect(
                TextDiff.unified(old: old, new: new, path: "x", context: 1) == """
                    --- a/x
                    +++ b/x
                    @@ -1,3 +1,3 @@
                     a
                    -b
                    +B
                     c
                    @@ -9,2 +9,2 @@
                     i
                    -j
                    +J

                    """)
            #expect(TextDiff.unified(old: old, new: old, path: "x") == "")
            #expect(TextDiff.unified(old: "a", new: "b", path: "x") == "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n")
            #expect(TextDiff.unified(old: "a\n", new: "a\nb\n", path: "x") == "--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b\n")
            #expect(TextDiff.unified(old: "", new: "a\n", path: "x") == "--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+a\n")
            // CRLF lines keep their carriage return.
            #expect(TextDiff.unified(old: "a\r\nb\r\n", new: "a\r\nc\r\n", path: "x").contains("-b\r\n+c\r\n"))
        }

        /// A failing write at any point leaves every file exactly as it was.
        @Test(arguments: [FileTransaction.Phase.writeTemporary, .rename])
        func failedWriteLeavesEveryFileUnchanged(phase: FileTransaction.Phase) throws {
            let folder = try XcodeFixture(name: "binary-plist").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = XcodeFixture.files(in: folder)
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.major), build: "9999")
            #expect(plan.files.count == 2)
            let victim = try #require(plan.files.last?.path)
            do {
                try FileTransaction.apply(plan.files) { current, path, _ in
                    if current == phase, path == victim { throw AtomicFileError.cannotWrite(path: path, reason: "injected failure") }
                }
                Issue.record("the injected failure must surface")
            } catch let error as VersioningError {
                guard case .writeFailed(let path, let reason, let restored) = error else { throw error }
                #expect(path == victim)
                #expect(reason == "injected failure")
                #expect(restored == (phase == .rename ? [plan.files[0].path] : []))
                #expect(error.description.contains("nothing was changed"))
            }
            #expect(XcodeFixture.files(in: folder) == before, "no file may change and no temporary file may be left behind")
        }

        /// Real failures of each step (a directory where the temporary file goes, a directory where the file is
        /// renamed to) say which file, which step and the system's reason, and leave the other files as they were.
        @Test func failedWritesSayWhatFailed() throws {
            let folder = try XcodeFixture(name: "binary-plist").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = XcodeFixture.files(in: folder)
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.major), build: "9999")
            let victim = try #require(plan.files.last?.path)

            let blocked = TemporaryPathLog()
            do {
                try FileTransaction.apply(plan.files) { phase, path, temporary in
                    guard phase == .writeTemporary, path == victim else { return }
                    blocked.set(temporary)
                    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
                }
                Issue.record("creating the temporary file must fail")
            } catch let error as VersioningError {
                let temporary = try #require(blocked.value)
                #expect(error.description == "cannot write '\(victim)': cannot create temporary file '\(temporary)': File exists; nothing was changed")
                try FileManager.default.removeItem(atPath: temporary)
            }
            #expect(XcodeFixture.files(in: folder) == before)

            do {
                try FileTransaction.apply(plan.files) { phase, path, _ in
                    guard phase == .rename, path == victim else { return }
                    // The file turns into a folder with something in it: rename(2) cannot replace it.
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
                }
                Issue.record("renaming over a folder must fail")
            } catch let error as VersioningError {
                guard case .writeFailed(let path, let reason, let restored) = error else { throw error }
                #expect(path == victim)
                #expect(reason.hasPrefix("cannot rename '\(FilePath.parent(of: victim))/.\((victim as NSString).lastPathComponent).tmp-"))
                #expect(reason.hasSuffix("' over it: Is a directory") || reason.hasSuffix("' over it: Directory not empty"))
                #expect(restored == [plan.files[0].path])
            }
            var after = XcodeFixture.files(in: folder)
            after[ProjectVersions.relative(victim, to: folder)] = before[ProjectVersions.relative(victim, to: folder)]
            after.removeValue(forKey: ProjectVersions.relative(victim, to: folder) + "/inside")
            #expect(after == before, "every other file is as it was, and no temporary file is left")
        }

        @Test func workflowChecksGitBeforeWritingAndRunsTheCommandsItShows() async throws {
            let plan = BumpPlan(
                previousVersion: "3.0.0", previousBuild: "4146", version: "3.0.1", build: "4321",
                files: [
                    FileEdit(path: "/p/Info.plist", displayPath: "Info.plist", original: Data(), updated: Data(), isBinary: false, changes: [])
                ])
            let ran = VersioningCommandLog()
            func workflow(repository: Bool, branchExists: Bool) -> BumpWorkflow {
                BumpWorkflow(
                    directory: "/p", push: true,
                    runner: { arguments, _ in
                        ran.append(arguments)
                        var status: Int32 = 0
                        if arguments == GitCommand.isRepository, !repository { status = 128 }
                        if arguments.starts(with: ["git", "rev-parse", "--verify"]), !branchExists { status = 1 }
                        return (ProcessResult(status: status, signal: nil, standardOutput: "abc123\n"), status == 0 ? "" : "fatal: nope")
                    })
            }
            await #expect(throws: VersioningError.git("'/p' is not in a git repository (pass --no-branch to only write the files)")) {
                try await workflow(repository: false, branchExists: false).preflight(plan)
            }
            await #expect(throws: VersioningError.git("branch 'release/3.0.1' already exists (check it out to bump there, delete it, or pass --no-branch)")) {
                try await workflow(repository: true, branchExists: true).preflight(plan)
            }
            let good = workflow(repository: true, branchExists: false)
            let prepared = try await good.preflight(plan)
            #expect(prepared == BumpWorkflow.Preparation(onBranch: false, detached: false, identity: []))
            #expect(
                good.commands(for: plan, prepared: prepared) == [
                    ["git", "checkout", "-b", "release/3.0.1"],
                    ["git", "add", "--", "/p/Info.plist"],
                    ["git", "commit", "-m", "Bump version to 3.0.1 (4321)", "--", "/p/Info.plist"],
                    ["git", "push", "-u", "origin", "release/3.0.1"],
                ])
            ran.clear()
            let result = try await good.perform(plan, prepared: prepared)
            #expect(result.branch == "release/3.0.1")
            #expect(result.commit == "abc123")
            #expect(ran.commands == good.commands(for: plan, prepared: prepared) + [GitCommand.head])
        }

        /// On GitLab's detached HEAD with CI_COMMIT_BRANCH naming the release branch, and with no git identity: the bump
        /// commits where it is, pushes HEAD to the branch by its full name, and gives the commit the CI user's identity.
        @Test func workflowOnADetachedReleaseBranchWithoutIdentity() async throws {
            let plan = BumpPlan(
                previousVersion: "3.0.1", previousBuild: "7", version: "3.0.1", build: "8",
                files: [
                    FileEdit(path: "/p/Info.plist", displayPath: "Info.plist", original: Data(), updated: Data(), isBinary: false, changes: [])
                ])
            let workflow = BumpWorkflow(
                directory: "/p", push: true,
                environment: ["CI_COMMIT_BRANCH": "release/3.0.1", "GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_ID": "42"],
                runner: { arguments, _ in
                    var output = ""
                    var status: Int32 = 0
                    if arguments == GitCommand.currentBranch { output = "HEAD\n" }
                    if arguments.starts(with: ["git", "config", "--get"]) { status = 1 }
                    if arguments.starts(with: ["git", "rev-parse", "--verify"]) { status = 1 }
                    return (ProcessResult(status: status, signal: nil, standardOutput: output), "")
                })
            let prepared = try await workflow.preflight(plan)
            #expect(prepared.onBranch && prepared.detached)
            #expect(
                workflow.commands(for: plan, prepared: prepared) == [
                    ["git", "add", "--", "/p/Info.plist"],
                    [
                        "git", "-c", "user.name=jdoe", "-c", "user.email=42-jdoe@users.noreply.gitlab.com", "commit", "-m", "Bump version to 3.0.1 (8)",
                        "--", "/p/Info.plist",
                    ],
                    ["git", "push", "origin", "HEAD:refs/heads/release/3.0.1"],
                ])
            #expect(workflow.preview(for: plan, prepared: prepared).contains("commit 1 file(s) on 'release/3.0.1', the current branch, with"))
        }

        @Test func staleFilesAreNotOverwritten() throws {
            let folder = try XcodeFixture(name: "version-file").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.minor), build: nil)
            try "9.9.9\n".write(toFile: folder + "/VERSION", atomically: true, encoding: .utf8)
            #expect(throws: VersioningError.staleFile(path: folder + "/VERSION", line: nil, expected: "the contents read when planning")) {
                try FileTransaction.apply(plan.files)
            }
            #expect(try String(contentsOfFile: folder + "/VERSION", encoding: .utf8) == "9.9.9\n")
        }

        @Test func tokensKeepTheirQuoting() {
            let pbx = ValueSite(path: "p", line: 1, key: "K", format: .pbxproj, range: 0..<1, quoted: false, rawValue: "1.0")
            #expect(BumpPlanner.token("3.1", for: pbx) == "3.1")
            #expect(BumpPlanner.token("3.1 beta", for: pbx) == "\"3.1 beta\"")
            var quoted = pbx
            quoted.quoted = true
            #expect(BumpPlanner.token("3.1", for: quoted) == "\"3.1\"")
            let xml = ValueSite(path: "p", line: 1, key: "K", format: .xmlPlist, range: 0..<1, quoted: false, rawValue: "1")
            #expect(BumpPlanner.token("1<2", for: xml) == "1&lt;2")
        }
    }
}

/// The temporary path a fault hook saw.
final class TemporaryPathLog: @unchecked Sendable {
    // Guarded by `lock`: the hook is a @Sendable closure.
    private let lock = NSLock()
    private var stored: String?

    func set(_ path: String) {
        lock.lock()
        stored = path
        lock.unlock()
    }

    var value: String? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// Records the commands a fake git runner was asked to run.
final class VersioningCommandLog: @unchecked Sendable {
    // Guarded by `lock`: the runner is called from concurrent tasks.
    private let lock = NSLock()
    private var storage: [[String]] = []

    func append(_ command: [String]) {
        lock.lock()
        storage.append(command)
        lock.unlock()
    }

    func clear() {
        lock.lock()
        storage.removeAll()
        lock.unlock()
    }

    var commands: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
