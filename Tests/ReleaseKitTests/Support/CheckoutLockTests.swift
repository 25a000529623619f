import Foundation
import ReleaseTestSupport
import Synchronization
import Testing

@testable import ReleaseExecution
@testable import ReleaseSupport

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

    /// A run that ends while the next one waits for its record is no longer running: the next one takes the lock.
    /// Before, it waited two seconds for a record that its ended holder had removed, then was refused naming no one
    /// (CI saw it when eight bumps started at once).
    @Test func aHolderThatEndsWhileTheNextWaitsHandsTheLockOver() throws {
        let main = try repository()
        let first = try CheckoutLock.acquire(in: main, command: "release bump")
        // As between a holder's `flock` and its first record: the lock is held, no record names it (and none is
        // rewritten as other tests' children come and go).
        ProcessGroups.observe(nil)
        try FileManager.default.removeItem(atPath: first.recordPath)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { first.release() }
        let second = try CheckoutLock.acquire(in: main, command: "release bump")
        defer { second.release() }
        #expect(second.previous == nil, "a clean release leaves nothing to recover")
    }

    /// What a holder that died left in the file (its pid, start and the process groups of its steps) is handed to
    /// the next holder; the file itself lists this holder's children as they come and go.
    @Test func aDeadHoldersStateIsHandedOver() throws {
        let main = try repository()
        let dead = CheckoutLock.Holder(pid: 999_999, started: Date(timeIntervalSince1970: 1_800_000_000), command: "release run", groups: [4242])
        try JSONEncoder.stateFile.encode(dead).write(to: URL(fileURLWithPath: main + "/.git/release-holder.json"))
        let lock = try CheckoutLock.acquire(in: main, command: "release bump")
        defer { lock.release() }
        #expect(lock.previous == dead)
        ProcessGroups.spawned(Int32.max - 11)
        let listed = try JSONDecoder.stateFile.decode(CheckoutLock.Holder.self, from: Data(contentsOf: URL(fileURLWithPath: lock.recordPath)))
        ProcessGroups.remove(Int32.max - 11)
        #expect(listed.pid == getpid() && listed.command == "release bump")
        #expect(listed.groups.contains(Int32.max - 11))
        let after = try JSONDecoder.stateFile.decode(CheckoutLock.Holder.self, from: Data(contentsOf: URL(fileURLWithPath: lock.recordPath)))
        #expect(!after.groups.contains(Int32.max - 11))
    }

    /// Issue 40 item 9: a second process read the holder's record while the holder rewrote it in place (its children
    /// came and went) and was refused without a name. The record is now a file of its own, renamed into place at
    /// each change: never the same file rewritten, and whole whenever it is read, however often it changes.
    @Test func theHoldersRecordIsReadableWholeAtEveryInstant() throws {
        let main = try repository()
        let lock = try CheckoutLock.acquire(in: main, command: "release run", now: Date(timeIntervalSince1970: 1_800_000_000))
        defer { lock.release() }
        #expect(lock.recordPath == main + "/.git/release-holder.json")
        #expect(try Data(contentsOf: URL(fileURLWithPath: lock.path)).isEmpty, "the lock file itself is never written")
        func inode() throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: lock.recordPath)[.systemFileNumber] as? Int)
        }
        let before = try inode()
        ProcessGroups.spawned(Int32.max - 12)
        #expect(try inode() != before, "the record is replaced by a rename, never rewritten in place")
        ProcessGroups.remove(Int32.max - 12)

        // A writer changing the record all the time, and readers that must always find the holder.
        let stop = Mutex(false)
        let writer = Thread {
            var group = Int32.max - 1000
            while !stop.withLock({ $0 }) {
                ProcessGroups.spawned(group)
                ProcessGroups.remove(group)
                group -= 1
                if group < Int32.max - 2000 { group = Int32.max - 1000 }
            }
        }
        writer.start()
        defer { stop.withLock { $0 = true } }
        for _ in 0..<200 {
            do {
                _ = try CheckoutLock.acquire(in: main, command: "release bump")
                Issue.record("a second holder was let in")
            } catch CheckoutLockError.held(_, let holder) {
                #expect(holder?.pid == getpid(), "the refusal did not name the holder")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: lock.path)).isEmpty)
    }

    /// Issue 40 F3: a `release.lock` that is a symlink made a run write the lock's JSON into the file it pointed to,
    /// then empty it. The lock is opened with `O_NOFOLLOW` and must be this user's regular file with one name.
    @Test(arguments: ["symlink", "fifo", "hardlink"])
    func aLockThatIsNotItsOwnRegularFileIsRefused(kind: String) throws {
        let main = try repository()
        let victim = main + "-victim.txt"
        try Data("IMPORTANT USER DATA\n".utf8).write(to: URL(fileURLWithPath: victim))
        defer { try? FileManager.default.removeItem(atPath: victim) }
        let path = main + "/.git/release.lock"
        let expected: String
        switch kind {
        case "symlink":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
            expected = "cannot lock '\(path)': it is a symbolic link; a lock is never followed: remove it"
        case "fifo":
            #expect(mkfifo(path, 0o644) == 0)
            expected = "cannot lock '\(path)': it is a FIFO, not a regular file: remove it"
        default:
            #expect(link(victim, path) == 0)
            expected = "cannot lock '\(path)': it has 2 names (a hard link): remove it"
        }
        #expect(throws: CheckoutLockError.cannotLock(path: path, reason: String(expected.dropFirst("cannot lock '\(path)': ".count)))) {
            _ = try CheckoutLock.acquire(in: main, command: "release run")
        }
        #expect(FileManager.default.contents(atPath: victim) == Data("IMPORTANT USER DATA\n".utf8), "the file the lock pointed to was written")
        let error = CheckoutLockError.cannotLock(path: path, reason: String(expected.dropFirst("cannot lock '\(path)': ".count)))
        #expect(error.description == expected)
    }

    /// Issue 40 F6: a stale record listing the process group of a process no `release` started (a reused id, or a
    /// record someone wrote) made the next run SIGTERM and SIGKILL it. A group is now stopped only while its leader
    /// is the child that run started: same start time and the run's marker in its environment.
    @Test func aStaleRecordsGroupThatIsNotItsChildIsLeftAlone() async throws {
        let main = try repository()
        // A process in a group of its own, as `setsid sleep 300 &` makes (perl: on macOS and Linux alike).
        let victim = Process()
        victim.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        victim.arguments = ["-e", "setpgrp(0, 0); sleep 60"]
        try victim.run()
        defer { kill(victim.processIdentifier, SIGKILL) }
        let group = victim.processIdentifier
        let deadline = Date().addingTimeInterval(10)
        while getpgid(group) != group {
            try #require(Date() < deadline, "the victim never got a group of its own")
            try await Task.sleep(for: .milliseconds(10))
        }
        let start = try #require(PlatformProcesses.startTime(of: group))
        // The forger knows the pid and even its start time; what it cannot give the victim is the run's marker.
        let forged = CheckoutLock.Holder(
            pid: 999_998, started: Date(timeIntervalSince1970: 1), command: "release run", groups: [group, 4_194_400, 4_194_401],
            leaders: [String(group): start])
        try JSONEncoder.stateFile.encode(forged).write(to: URL(fileURLWithPath: main + "/.git/release-holder.json"))
        let session = try await CheckoutRecovery.begin(in: main, command: "release run", grace: 0.2)
        defer { session.lock.release() }
        #expect(victim.isRunning, "an unrelated process was stopped")
        #expect(
            session.notes.first?.hasSuffix("taken over; left alone process group \(group) it names: not a step it started") == true,
            "\(session.notes)")
    }

    /// Issue 40 F7: `kill -9` during `signing.sync`'s import left the certificate's private key and the temporary
    /// keychain in the run's scratch folder, and the keychain on the search list. The next run removes the dead run's
    /// `release-run-PID-N` folder and takes its keychains off the search list (here with the fake `security`).
    @Test func aDeadRunsScratchFolderAndKeychainAreRemoved() async throws {
        let main = try repository()
        let pid: Int32 = 999_996
        let scratch = (NSTemporaryDirectory() as NSString).appendingPathComponent("release-run-\(pid)-42")
        let signing = scratch + "/release-signing-1"
        try FileManager.default.createDirectory(atPath: signing, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: signing + "/signing.key", contents: Data("-----BEGIN RSA PRIVATE KEY-----".utf8))
        let keychain = scratch + "/release-signing.keychain-db"
        FileManager.default.createFile(atPath: keychain, contents: Data())
        let state = main + "-fake-state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let login = "/Users/ci/Library/Keychains/login.keychain-db"
        try JSONSerialization.data(withJSONObject: [login, keychain]).write(to: URL(fileURLWithPath: state + "/search-list.json"))
        let dead = CheckoutLock.Holder(pid: pid, started: Date(timeIntervalSince1970: 1_800_000_000), command: "release run")
        try JSONEncoder.stateFile.encode(dead).write(to: URL(fileURLWithPath: main + "/.git/release-holder.json"))
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = FixturePaths.fixture("FakeTools").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["RELEASE_FAKE_STATE"] = state
        environment["HOME"] = "/Users/ci"
        let session = try await CheckoutRecovery.begin(in: main, command: "release run", grace: 0.2, environment: environment)
        defer { session.lock.release() }
        #expect(!FileManager.default.fileExists(atPath: scratch), "the dead run's key is still on disk")
        #expect(
            session.notes.first?.hasSuffix("taken over; removed its scratch folder ('\(scratch)') and took its keychain off the search list") == true,
            "\(session.notes)")
        let list = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state + "/search-list.json"))) as? [String]
        #expect(list == [login])
    }
}
