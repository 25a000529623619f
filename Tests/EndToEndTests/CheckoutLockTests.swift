import Foundation
import ReleaseSupport
import ReleaseTestSupport
import ReleaseVersioning
import Synchronization
import Testing

/// One run per checkout, and what the next run does after one was killed (`kill -9`): the real binary against real
/// repositories.
@Suite struct CheckoutLockTests {
    /// Starts `release ARGUMENTS` in `directory` with its output going to files.
    private func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private func isAlive(_ pid: Int32) -> Bool {
        Platform.processIsRunning(pid)
    }

    /// A pipeline whose one step records its pid and sleeps, in its own process group. The pid file appears whole
    /// (renamed into place): `echo $$ > work.pid` let a reader that saw the file find it still empty.
    private func sleeper(in directory: String) throws {
        try #"""
        {"version": 1, "steps": [{"id": "work", "uses": "shell", "with": {"run": ["sh", "-c", "echo $$ > work.pid.tmp && mv work.pid.tmp work.pid; exec sleep 300"]}}]}
        """#.write(toFile: directory + "/slow.json", atomically: true, encoding: .utf8)
        try #"{"version": 1, "steps": [{"id": "a", "uses": "print", "with": {"message": "hi"}}]}"#
            .write(toFile: directory + "/quick.json", atomically: true, encoding: .utf8)
    }

    /// While a run holds the checkout, a second run (and a bump) is refused with exit 1, naming the holder's pid,
    /// command and start time and the lock; a dry run needs no lock. Once the first ends, the lock is free again.
    @Test func aSecondRunInTheSameCheckoutIsRefusedNamingTheHolder() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try sleeper(in: directory)
        let first = try ReleaseBinary.start(["run", "slow.json"], in: directory, stderrFile: "first.stderr")
        defer { if first.isRunning { first.interrupt() }; first.waitUntilExit() }
        try ReleaseBinary.waitFor(directory + "/work.pid")
        let lock = directory + "/.git/release.lock"

        let second = try ReleaseBinary.run(["run", "quick.json"], in: directory)
        #expect(second.status == 1, "\(second.stderr)")
        let prefix = "error: another release is running in this checkout: pid \(first.processIdentifier) ('release run', started 20"
        #expect(second.stderr.hasPrefix(prefix), "\(second.stderr)")
        #expect(second.stderr.hasSuffix("Z) holds '\(lock)'; wait for it to end, or stop it\n"), "\(second.stderr)")
        let bump = try ReleaseBinary.run(["bump", "1.2.3", "--yes", "--no-branch"], in: directory)
        #expect(bump.status == 1, "\(bump.stderr)")
        #expect(bump.stderr.hasPrefix(prefix), "\(bump.stderr)")

        let dry = try ReleaseBinary.run(["run", "quick.json", "--dry-run"], in: directory)
        #expect(dry.status == 0, "\(dry.stderr)")

        first.interrupt()
        first.waitUntilExit()
        #expect(first.terminationStatus == 130)
        let third = try ReleaseBinary.run(["run", "quick.json"], in: directory)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(!third.stderr.contains("note:"), "a run that ended normally leaves nothing to recover: \(third.stderr)")
    }

    /// `kill -9` of a run leaves its running step's process group behind (it is not the killed process's group) and
    /// the lock file naming it, and perhaps the temporary file of an atomic write it was in the middle of (a report).
    /// The next run takes the lock over, stops that group first, removes the file, and says so.
    @Test func theNextRunStopsTheStepsAKilledRunLeftRunning() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try sleeper(in: directory)
        let first = try ReleaseBinary.start(["run", "slow.json"], in: directory, stderrFile: "first.stderr")
        try ReleaseBinary.waitFor(directory + "/work.pid")
        let orphan = try #require(pid(in: directory + "/work.pid"))
        // The group is in the holder's record before the run is killed (it is written as soon as the step is spawned).
        let deadline = Date().addingTimeInterval(60)
        while !((try? String(contentsOfFile: directory + "/.git/release-holder.json", encoding: .utf8)) ?? "").contains("\(orphan)") {
            try #require(Date() < deadline, "the holder's record never listed the step's group")
            Thread.sleep(forTimeInterval: 0.01)
        }
        // Its scratch folder, where `signing.sync` keeps the certificate's key while it imports it (issue 40 F7).
        // (The binary's TMPDIR is the tests' temporary folder.)
        let scratchFolders = try FileManager.default.contentsOfDirectory(atPath: TestTemporary.root)
            .filter { $0.hasPrefix("release-run-\(first.processIdentifier)-") }
        #expect(scratchFolders.count == 1, "\(scratchFolders)")
        let scratch = (TestTemporary.root as NSString).appendingPathComponent(try #require(scratchFolders.first))
        FileManager.default.createFile(atPath: scratch + "/signing.key", contents: Data("-----BEGIN RSA PRIVATE KEY-----".utf8))
        kill(first.processIdentifier, SIGKILL)
        let leftover = directory + "/.report.json.tmp-\(first.processIdentifier)-12345"
        FileManager.default.createFile(atPath: leftover, contents: Data("{".utf8))
        let unrelated = directory + "/.report.json.tmp-1-12345"
        FileManager.default.createFile(atPath: unrelated, contents: Data("{".utf8))
        first.waitUntilExit()
        #expect(isAlive(orphan), "the step outlives a killed run")
        defer { kill(orphan, SIGKILL) }

        let next = try ReleaseBinary.run(["run", "quick.json"], in: directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("note: pid \(first.processIdentifier) ('release run', started 20"), "\(next.stderr)")
        #expect(
            next.stderr.contains(
                "Z) ended without releasing '\(directory)/.git/release.lock'; taken over; stopped the process group of its steps still running (\(orphan)); removed 1 temporary file it left; removed its scratch folder ('\(scratch)')\n"
            ),
            "\(next.stderr)")
        #expect(!isAlive(orphan), "the orphaned step still runs")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: scratch), "the killed run's signing key is still on disk")
        #expect(FileManager.default.fileExists(atPath: unrelated), "another process's temporary file is not touched")
    }

    /// Eight bumps at once in one checkout: each either bumps (once) or is refused; before the lock all eight
    /// "succeeded" and the version moved by two.
    @Test func parallelBumpsEachBumpOnceOrAreRefused() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try "1.0.0\n".write(toFile: directory + "/VERSION", atomically: true, encoding: .utf8)
        let outcomes = Mutex<[ReleaseBinary.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let outcome = try? ReleaseBinary.run(["bump", "patch", "--file", "VERSION", "--no-branch", "--yes"], in: directory)
            outcomes.withLock { $0.append(outcome ?? ReleaseBinary.Outcome(status: -1, stdout: "", stderr: "did not start")) }
        }
        let all = outcomes.withLock { $0 }
        let bumped = all.filter { $0.status == 0 }
        #expect(bumped.count >= 1)
        for refused in all where refused.status != 0 {
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("error: another release is running in this checkout: pid "), "\(refused.stderr)")
        }
        #expect(try String(contentsOfFile: directory + "/VERSION", encoding: .utf8) == "1.0.\(bumped.count)\n")
    }

    /// A bump killed between two renames (simulated here at exactly that point) left one file bumped, the other not,
    /// a temporary file and its journal. The next `release bump` rolls it back first, says so, and bumps once: the
    /// project ends exactly as one bump of the untouched project leaves it.
    @Test func aBumpKilledHalfwayIsRolledBackAndTheNextBumpsOnce() throws {
        let crashed = try BumpCommandTests.Repository(fixture: "binary-plist")
        let clean = try BumpCommandTests.Repository(fixture: "binary-plist")
        defer { crashed.remove(); clean.remove() }
        let plan = try BumpPlanner.plan(try VersionReader.read(in: crashed.path), choice: .part(.major), build: "9999")
        #expect(plan.files.count == 2)
        let last = try #require(plan.files.last?.path)
        #expect(throws: FileTransaction.SimulatedCrash.self) {
            try FileTransaction.apply(plan.files, journal: try FileTransaction.journalFolder(for: crashed.path)) { phase, path, _ in
                if phase == .rename, path == last { throw FileTransaction.SimulatedCrash() }
            }
        }
        #expect(try crashed.git("status", "--porcelain").contains(plan.files[0].displayPath), "the crash left one file bumped")

        let arguments = ["bump", "major", "--build", "9999", "--yes", "--no-branch"]
        let recovered = try BumpCommandTests.execute([BumpCommandTests.binary] + arguments, in: crashed.path)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stderr.contains("note: rolled back an interrupted bump (pid \(getpid()), started 20"), "\(recovered.stderr)")
        #expect(
            recovered.stderr.contains("Z): restored '\(plan.files[0].displayPath)' to their contents before it\nnote: removed 1 temporary file the interrupted bump left\n"),
            "\(recovered.stderr)")
        let once = try BumpCommandTests.execute([BumpCommandTests.binary] + arguments, in: clean.path)
        #expect(once.status == 0, "\(once.stderr)")
        // Values, not bytes: a binary property list's key order is not fixed from one process to the next.
        let versions = try BumpCommandTests.execute([BumpCommandTests.binary, "version", "--json"], in: crashed.path)
        #expect(versions.status == 0 && versions.stdout.contains("\"9999\""), "\(versions.stdout)\(versions.stderr)")
        #expect(
            versions.stdout
                == (try BumpCommandTests.execute([BumpCommandTests.binary, "version", "--json"], in: clean.path)).stdout
                .replacingOccurrences(of: clean.path, with: crashed.path), "not the versions one bump gives")
        #expect(
            try crashed.git("status", "--porcelain", "--untracked-files=all") == clean.git("status", "--porcelain", "--untracked-files=all"),
            "no temporary file is left")
        #expect(!FileManager.default.fileExists(atPath: crashed.path + "/.git/release-bump"))
    }
}
