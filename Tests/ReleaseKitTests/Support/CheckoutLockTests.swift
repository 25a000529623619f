import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseKit

@Suite(.serialized) struct CheckoutLockTests {
    private func git(_ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "git \(arguments)")
    }

    private func repository() throws -> String {
        let created = TestTemporary.root + "/release-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: created + "/sub/deeper", withIntermediateDirectories: true)
        // Canonical, as git writes a linked worktree's `gitdir:` (a Mac's $TMPDIR is a symlink away from it).
        let directory = try #require(Platform.canonicalPath(created))
        try git(["init", "-q", "-b", "main"], in: directory)
        try git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "--allow-empty", "-m", "initial"], in: directory)
        return directory
    }

    /// The git dir as `git rev-parse --git-dir` finds it: from a subfolder, and in a linked worktree, whose `.git`
    /// is a file naming its own git dir; outside git there is none and state goes to `.release/`.
    @Test func theGitDirIsFoundLikeGitFindsIt() throws {
        let main = try repository()
        #expect(GitDirectory.of(main) == main + "/.git")
        #expect(GitDirectory.of(main + "/sub/deeper") == main + "/.git")
        try git(["worktree", "add", "-q", main + "-linked"], in: main)
        #expect(GitDirectory.of(main + "-linked") == main + "/.git/worktrees/" + (main as NSString).lastPathComponent + "-linked")
        let plain = TestTemporary.root + "/release-plain-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        #expect(GitDirectory.of(plain) == nil)
        #expect(try GitDirectory.stateFolder(for: plain) == (plain as NSString).appendingPathComponent(".release"))
    }

    /// A second lock of the same checkout (from a subfolder too) is refused naming the holder; two worktrees are two
    /// checkouts; a released lock leaves nothing to recover.
    @Test func oneHolderPerCheckout() throws {
        let main = try repository()
        let lock = try CheckoutLock.acquire(in: main, command: "release run", now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(lock.path == main + "/.git/release.lock")
        #expect(lock.previous == nil)
        do {
            _ = try CheckoutLock.acquire(in: main + "/sub", command: "release bump")
            Issue.record("a second holder was let in")
        } catch let error as CheckoutLockError {
            // The holder's process groups are whatever children this test process runs now: not compared.
            guard case .held(let path, let holder?) = error else { throw error }
            #expect(path == main + "/.git/release.lock")
            #expect(holder.pid == getpid() && holder.command == "release run" && holder.started == Date(timeIntervalSince1970: 1_800_000_000))
            #expect(
                error.description
                    == "another release is running in this checkout: pid \(getpid()) ('release run', started 2027-01-15T08:00:00Z) holds '\(main)/.git/release.lock'; wait for it to end, or stop it"
            )
        }
        try git(["worktree", "add", "-q", main + "-other"], in: main)
        let other = try CheckoutLock.acquire(in: main + "-other", command: "release run")
        other.release()
        lock.release()
        let again = try CheckoutLock.acquire(in: main, command: "release run")
        #expect(again.previous == nil, "a clean release leaves nothing to recover")
        again.release()
    }

    /// What a holder that died left in the file (its pid, start and the process groups of its steps) is handed to
    /// the next holder; the file itself lists this holder's children as they come and go.
    @Test func aDeadHoldersStateIsHandedOver() throws {
        let main = try repository()
        let dead = CheckoutLock.Holder(pid: 999_999, started: Date(timeIntervalSince1970: 1_800_000_000), command: "release run", groups: [4242])
        try JSONEncoder.stateFile.encode(dead).write(to: URL(fileURLWithPath: main + "/.git/release.lock"))
        let lock = try CheckoutLock.acquire(in: main, command: "release bump")
        defer { lock.release() }
        #expect(lock.previous == dead)
        ProcessGroups.spawned(Int32.max - 11)
        let listed = try JSONDecoder.stateFile.decode(CheckoutLock.Holder.self, from: Data(contentsOf: URL(fileURLWithPath: lock.path)))
        ProcessGroups.remove(Int32.max - 11)
        #expect(listed.pid == getpid() && listed.command == "release bump")
        #expect(listed.groups.contains(Int32.max - 11))
        let after = try JSONDecoder.stateFile.decode(CheckoutLock.Holder.self, from: Data(contentsOf: URL(fileURLWithPath: lock.path)))
        #expect(!after.groups.contains(Int32.max - 11))
    }
}
