import Foundation
import Synchronization

/// One `release run` or writing `release bump` per checkout at a time: an exclusive `flock(2)` on `release.lock` in
/// the checkout's git dir (``GitDirectory``; `.release/` outside git), held until the command ends.
///
/// The system releases the lock when the process ends in any way, `kill -9` included, so a lock is never left
/// stale; what is left is the file's contents: the holder's pid, start time and command, and the process groups of
/// the children it runs (rewritten as they start and end). The next command to take the lock reads them
/// (``previous``) to stop the children that outlived their run (``CheckoutRecovery``). The file is emptied on
/// release and never removed: removing it would let a second process lock a new file while a third still waits on
/// the old one.
public final class CheckoutLock: Sendable {
    /// What the lock file says about the process that holds (or held) it.
    public struct Holder: Codable, Sendable, Equatable {
        public var pid: Int32
        public var started: Date
        public var command: String
        /// Process groups of the children it was running.
        public var groups: [Int32]

        public init(pid: Int32, started: Date, command: String, groups: [Int32] = []) {
            self.pid = pid
            self.started = started
            self.command = command
            self.groups = groups
        }

        /// `pid 1234 ('release run', started 2026-11-26T08:30:00Z)`.
        public var description: String {
            "pid \(pid) ('\(command)', started \(Timestamp.iso8601(started)))"
        }
    }

    /// The lock file.
    public let path: String
    /// What a process that ended without releasing the lock (killed, crashed) left in the file; nil after a clean
    /// release.
    public let previous: Holder?

    private struct State {
        var descriptor: Int32
        var holder: Holder
    }

    private let state: Mutex<State>

    /// The lock this process holds, emptied and released by ``releaseHeld()`` on the way out of an interrupt.
    private static let held = Mutex<CheckoutLock?>(nil)

    private init(path: String, descriptor: Int32, holder: Holder, previous: Holder?) {
        self.path = path
        self.previous = previous
        self.state = Mutex(State(descriptor: descriptor, holder: holder))
    }

    /// Takes the lock of the checkout holding `directory` for `command` (`release run`), without waiting.
    /// - Throws: ``CheckoutLockError/held(path:holder:)`` when another process holds it,
    ///   ``CheckoutLockError/cannotLock(path:reason:)`` when the file cannot be made or locked.
    public static func acquire(in directory: String, command: String, now: Date = Date()) throws -> CheckoutLock {
        let folder: String
        do {
            folder = try GitDirectory.stateFolder(for: directory)
        } catch {
            throw CheckoutLockError.cannotLock(path: (directory as NSString).appendingPathComponent(".release/release.lock"), reason: "\(error)")
        }
        let path = (folder as NSString).appendingPathComponent("release.lock")
        let descriptor = Platform.openForLocking(path)
        guard descriptor >= 0 else {
            throw CheckoutLockError.cannotLock(path: path, reason: Platform.errorText(Platform.errorNumber))
        }
        guard Platform.tryLockExclusively(descriptor) else {
            let code = Platform.errorNumber
            // A holder writes itself into the file right after taking the lock: until then the file is empty or
            // names a process that is gone. Give it a moment, so the refusal can name it.
            var current = holder(in: descriptor)
            let deadline = ContinuousClock.now + .seconds(2)
            while Platform.isLockHeld(code), current.map({ !Platform.processExists($0.pid) }) ?? true, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
                current = holder(in: descriptor)
            }
            close(descriptor)
            if Platform.isLockHeld(code) { throw CheckoutLockError.held(path: path, holder: current) }
            throw CheckoutLockError.cannotLock(path: path, reason: Platform.errorText(code))
        }
        let lock = CheckoutLock(
            path: path, descriptor: descriptor, holder: Holder(pid: getpid(), started: now, command: command),
            previous: holder(in: descriptor))
        lock.writeHolder()
        held.withLock { $0 = lock }
        ProcessGroups.observe { lock.writeHolder() }
        return lock
    }

    /// Empties the file and releases the lock. Safe to call more than once.
    public func release() {
        ProcessGroups.observe(nil)
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            _ = ftruncate(state.descriptor, 0)
            close(state.descriptor)
            state.descriptor = -1
        }
        Self.held.withLock { if $0 === self { $0 = nil } }
    }

    /// Releases the lock this process holds, if any: for an exit that skips the command's own clean-up.
    public static func releaseHeld() {
        held.withLock { $0 }?.release()
    }

    /// Rewrites the file with this process and the process groups it runs now.
    private func writeHolder() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            state.holder.groups = ProcessGroups.current.sorted()
            guard var data = try? JSONEncoder.stateFile.encode(state.holder) else { return }
            data.append(UInt8(ascii: "\n"))
            let written = data.withUnsafeBytes { pwrite(state.descriptor, $0.baseAddress, $0.count, 0) }
            if written == data.count { _ = ftruncate(state.descriptor, off_t(data.count)) }
        }
    }

    /// The holder the file at `descriptor` names; nil when it is empty or unreadable (being rewritten).
    private static func holder(in descriptor: Int32) -> Holder? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while data.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
        return try? JSONDecoder.stateFile.decode(Holder.self, from: data)
    }
}

/// Why the checkout's lock could not be taken.
public enum CheckoutLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds it.
    case held(path: String, holder: CheckoutLock.Holder?)
    case cannotLock(path: String, reason: String)

    public var description: String {
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
    static var stateFile: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``JSONEncoder/stateFile`` wrote.
    static var stateFile: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
