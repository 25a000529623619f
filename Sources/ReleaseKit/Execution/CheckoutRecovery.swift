import Foundation
import ReleaseApple
import ReleasePlanning
import ReleaseSupport
import ReleaseVersioning

/// What `release run` and a writing `release bump` do before they read or change anything in a checkout: take its
/// lock (``CheckoutLock``: one at a time), then clean up after a run that died while holding it (`kill -9`, a crash,
/// a power cut): stop the process groups of the steps it left running, which would otherwise race this run, and roll
/// back the bump it was in the middle of (``FileTransaction/recover(journal:checkout:)``), so this run bumps once, from where
/// the project was. Dry runs, `plan` and `validate` change nothing and take no lock.
package enum CheckoutRecovery {
    /// The lock, held until ``CheckoutLock/release()``, and what was recovered (one line each, for the user).
    package struct Session: Sendable {
        package let lock: CheckoutLock
        package let notes: [String]
    }

    /// The most process groups of a dead run that are looked at: a run has at most `--jobs` steps at once.
    static let maximumGroups = 256

    /// Takes the lock of the checkout holding `directory` and recovers what a dead run left.
    /// - Parameter grace: how long an orphaned process group has between SIGTERM and SIGKILL.
    /// - Throws: ``CheckoutLockError`` when another process holds the lock.
    /// - Parameter environment: for `security`, which takes a dead run's temporary keychain off the search list.
    package static func begin(
        in directory: String, command: String, grace: TimeInterval = 5, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Session {
        let lock = try CheckoutLock.acquire(in: directory, command: command)
        var notes: [String] = []
        if let previous = lock.previous {
            var stopped: [Int32] = []
            var foreign: [Int32] = []
            // Only groups whose leader is still the child that run started (same start time, marked with that run's
            // pid and this lock): the record is a file anyone with write access to the checkout can edit, and a
            // group id is reused once its processes are gone.
            let marker = ProcessGroups.marker(pid: previous.pid, lockPath: lock.path)
            for group in Set(previous.groups).sorted().prefix(maximumGroups) {
                guard PlatformProcesses.groupExists(group) else { continue }
                guard ProcessGroups.isChild(group, startedAt: previous.leaders?[String(group)], marker: marker) else {
                    foreign.append(group)
                    continue
                }
                if await ProcessGroups.stopOrphan(group, grace: grace) { stopped.append(group) }
            }
            var note = "\(previous.description) ended without releasing '\(lock.path)'; taken over"
            if !stopped.isEmpty {
                let list = stopped.map(String.init).joined(separator: ", ")
                note += "; stopped the process group\(stopped.count == 1 ? "" : "s") of its steps still running (\(list))"
            }
            if !foreign.isEmpty {
                let list = foreign.map(String.init).joined(separator: ", ")
                note += "; left alone process group\(foreign.count == 1 ? "" : "s") \(list) it names: not a step it started"
            }
            // Atomic writes it was in the middle of (a report, the journal, the lock folder's files).
            let folders = Set([FilePath.parent(of: lock.path), JournalLocation.folder(in: directory), directory])
            let removed = folders.reduce(0) { $0 + AtomicFile.removeTemporaries(of: previous.pid, in: $1) }
            if removed > 0 { note += "; removed \(removed) temporary file\(removed == 1 ? "" : "s") it left" }
            // Its scratch folder: what its steps kept only for the run (a signing key, a temporary keychain).
            let scratch = RunScratch.removeLeftovers(of: previous.pid)
            if !scratch.isEmpty {
                note += "; removed its scratch folder\(scratch.count == 1 ? "" : "s") (\(scratch.map { "'\($0)'" }.joined(separator: ", ")))"
                let keychains = await removeFromSearchList(inside: scratch, directory: directory, environment: environment)
                if !keychains.isEmpty {
                    note += " and took its keychain\(keychains.count == 1 ? "" : "s") off the search list"
                }
            }
            notes.append(note)
        }
        do {
            notes += FileTransaction.recover(
                journal: try FileTransaction.journalFolder(for: directory), checkout: GitDirectory.checkoutRoot(of: directory))
        } catch {
            lock.release()
            throw CheckoutLockError.cannotLock(path: lock.path, reason: "\(error)")
        }
        return Session(lock: lock, notes: notes)
    }

    /// Takes the keychains inside `folders` (a dead run's temporary keychain) off the user's keychain search list,
    /// where `signing.sync` or `signing.keychain` put it; nothing where there is no `security` (Linux).
    /// - Returns: the keychains taken off.
    static func removeFromSearchList(inside folders: [String], directory: String, environment: [String: String]) async -> [String] {
        guard ProcessRunner.resolveExecutable("security", directory: directory, environment: environment) != nil else { return [] }
        let list = ProcessRequest(arguments: SecurityCommand.listKeychains, directory: directory, environment: environment)
        guard let listed = try? await ProcessRunner.run(list, onLine: { _, _ in }), listed.succeeded else { return [] }
        let current = SecurityCommand.searchList(from: listed.standardOutput)
        // A Mac spells the temporary folder two ways (`/var/…` and `/private/var/…`).
        let prefixes = folders.flatMap { folder in [folder + "/", (Platform.canonicalPath(folder) ?? folder) + "/", "/private" + folder + "/"] }
        let gone = current.filter { keychain in prefixes.contains { keychain.hasPrefix($0) } }
        guard !gone.isEmpty else { return [] }
        let set = ProcessRequest(
            arguments: SecurityCommand.setSearchList(current.filter { !gone.contains($0) }), directory: directory, environment: environment)
        guard let result = try? await ProcessRunner.run(set, onLine: { _, _ in }), result.succeeded else { return [] }
        return gone
    }
}
