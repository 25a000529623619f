import Foundation
import Synchronization

/// One `release run` or writing `release bump` per checkout at a time: an exclusive `flock(2)` on `release.lock` in
/// the checkout's git dir (``GitDirectory``; `.release/` outside git), held until the command ends.
///
/// The system releases the lock when the process ends in any way, `kill -9` included, so a lock is never left
/// stale; what is left is the holder's record, `release-holder.json` beside the lock: its pid, start time and
/// command, and the process groups of the children it runs with their leaders' start times (rewritten as they
/// start and end). The record is written to a temporary file and renamed into place, so a reader sees a whole record
/// at every instant, never one half rewritten. The next command to take the lock reads it (``previous``) to stop the
/// children that outlived their run (``CheckoutRecovery``). The record is removed on release; the lock file is never
/// removed: removing it would let a second process lock a new file while a third still waits on the old one.
///
/// Both are `release`'s own files, never followed through a symlink: the lock is opened with `O_NOFOLLOW` and must be
/// a regular file of this user that no one else may write, with one name, or it is refused (a symlinked
/// `release.lock` once made a run truncate the file it pointed to).
package final class CheckoutLock: Sendable {
    /// What the record says about the process that holds (or held) the lock.
    package struct Holder: Codable, Sendable, Equatable {
        package var pid: Int32
        package var started: Date
        package var command: String
        /// Process groups of the children it was running.
        package var groups: [Int32]
        /// Each group's leader's start time as the system counts it (``PlatformProcesses/startTime(of:)``), by group
        /// id: a later run signals a group only while its leader is still that process.
        package var leaders: [String: UInt64]?

        package init(pid: Int32, started: Date, command: String, groups: [Int32] = [], leaders: [String: UInt64]? = nil) {
            self.pid = pid
            self.started = started
            self.command = command
            self.groups = groups
            self.leaders = leaders
        }

        /// `pid 1234 ('release run', started 2026-11-26T08:30:00Z)`.
        package var description: String {
            "pid \(pid) ('\(command)', started \(Timestamp.iso8601(started)))"
        }
    }

    /// The name of the holder's record, beside the lock.
    package static let recordName = "release-holder.json"
    /// The most a record may hold.
    static let recordLimit = 1 << 20

    /// The lock file.
    package let path: String
    /// The holder's record (``recordName`` beside ``path``).
    package let recordPath: String
    /// What a process that ended without releasing the lock (killed, crashed) left in its record; nil after a clean
    /// release.
    package let previous: Holder?

    private struct State {
        var descriptor: Int32
        var holder: Holder
    }

    private let state: Mutex<State>

    /// The lock this process holds, emptied and released by ``releaseHeld()`` on the way out of an interrupt.
    private static let held = Mutex<CheckoutLock?>(nil)

    private init(path: String, descriptor: Int32, holder: Holder, previous: Holder?) {
        self.path = path
        self.recordPath = FilePath.parent(of: path) + "/" + Self.recordName
        self.previous = previous
        self.state = Mutex(State(descriptor: descriptor, holder: holder))
    }

    /// Takes the lock of the checkout holding `directory` for `command` (`release run`), without waiting.
    /// - Throws: ``CheckoutLockError/held(path:holder:)`` when another process holds it,
    ///   ``CheckoutLockError/cannotLock(path:reason:)`` when the file cannot be made or locked, or is not a regular
    ///   file of this user (a symlink, a FIFO, another user's).
    package static func acquire(in directory: String, command: String, now: Date = Date()) throws -> CheckoutLock {
        let folder: String
        do {
            folder = try GitDirectory.stateFolder(for: directory)
        } catch {
            throw CheckoutLockError.cannotLock(path: (directory as NSString).appendingPathComponent(".release/release.lock"), reason: "\(error)")
        }
        let path = (folder as NSString).appendingPathComponent("release.lock")
        let record = (folder as NSString).appendingPathComponent(recordName)
        let descriptor: Int32
        do {
            guard let opened = try RegularFile.open(path, flags: O_RDWR | O_CREAT, mode: 0o644, checks: .state) else {
                throw CheckoutLockError.cannotLock(path: path, reason: "it vanished while being created")
            }
            descriptor = opened
        } catch let refusal as RegularFile.Refusal {
            throw CheckoutLockError.cannotLock(path: path, reason: Self.reason(refusal))
        }
        if !Platform.tryLockExclusively(descriptor) {
            let code = Platform.errorNumber
            guard Platform.isLockHeld(code) else {
                close(descriptor)
                throw CheckoutLockError.cannotLock(path: path, reason: Platform.errorText(code))
            }
            // A holder writes its record right after taking the lock and removes it right before releasing it: until
            // then there is none, or one naming a process that is gone. Give it a moment, so the refusal can name
            // it, and take the lock if the holder ends meanwhile (a run that ended is not one that is running). The
            // record is renamed into place, so what is read is a whole record, old or new.
            var current = holder(at: record)
            var taken = false
            let deadline = ContinuousClock.now + .seconds(2)
            while current.map({ !Platform.processExists($0.pid) }) ?? true, ContinuousClock.now < deadline {
                if Platform.tryLockExclusively(descriptor) {
                    taken = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.005)
                current = holder(at: record)
            }
            if !taken {
                close(descriptor)
                throw CheckoutLockError.held(path: path, holder: current)
            }
        }
        let lock = CheckoutLock(
            path: path, descriptor: descriptor, holder: Holder(pid: getpid(), started: now, command: command),
            previous: holder(at: record))
        lock.writeHolder()
        ProcessGroups.childMarker = ProcessGroups.marker(pid: getpid(), lockPath: path)
        held.withLock { $0 = lock }
        ProcessGroups.observe { lock.writeHolder() }
        return lock
    }

    /// Removes the record and releases the lock. Safe to call more than once.
    package func release() {
        ProcessGroups.observe(nil)
        ProcessGroups.childMarker = nil
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            unlink(recordPath)
            close(state.descriptor)
            state.descriptor = -1
        }
        Self.held.withLock { if $0 === self { $0 = nil } }
    }

    /// Releases the lock this process holds, if any: for an exit that skips the command's own clean-up.
    package static func releaseHeld() {
        held.withLock { $0 }?.release()
    }

    /// Rewrites the record with this process and the process groups it runs now: a new file renamed over the old.
    private func writeHolder() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            let groups = ProcessGroups.current.sorted()
            state.holder.groups = groups
            var leaders: [String: UInt64] = [:]
            for group in groups {
                if let start = PlatformProcesses.startTime(of: group) { leaders[String(group)] = start }
            }
            state.holder.leaders = leaders
            guard var data = try? JSONEncoder.stateFile.encode(state.holder) else { return }
            data.append(UInt8(ascii: "\n"))
            try? AtomicFile.write(data, to: recordPath)
        }
    }

    /// The holder a record names; nil when there is none, or it is not `release`'s own regular file, or unreadable.
    private static func holder(at record: String) -> Holder? {
        guard let data = try? RegularFile.read(record, limit: recordLimit, checks: .state) else { return nil }
        return try? JSONDecoder.stateFile.decode(Holder.self, from: data)
    }

    private static func reason(_ refusal: RegularFile.Refusal) -> String {
        switch refusal {
        case .symlink: return "it is a symbolic link; a lock is never followed: remove it"
        case .notRegular(_, let kind): return "it is \(kind), not a regular file: remove it"
        case .notOwned(_, let reason): return "it \(reason): remove it"
        case .cannotOpen(_, let reason): return reason
        case .tooLarge: return "it is too large"
        }
    }
}

/// Why the checkout's lock could not be taken.
package enum CheckoutLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds it.
    case held(path: String, holder: CheckoutLock.Holder?)
    case cannotLock(path: String, reason: String)

    package var description: String {
        switch self {
        case .held(let path, let holder?):
            return "another release is running in this checkout: \(holder.description) holds '\(path)'; wait for it to end, or stop it"
        case .held(let path, nil):
            return "another release is running in this checkout: it holds '\(path)'; wait for it to end, or stop it"
        case .cannotLock(let path, let reason):
            return "cannot lock '\(path)': \(reason)"
        }
    }
}

extension JSONEncoder {
    /// Our own state files (the checkout lock, the bump and run journals): compact (one line, no newline in it),
    /// keys sorted, dates as seconds since 1970.
    package static var stateFile: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``JSONEncoder/stateFile`` wrote.
    package static var stateFile: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
