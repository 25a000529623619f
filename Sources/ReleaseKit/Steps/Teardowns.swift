import Synchronization

/// Undo actions steps register for what they changed on the machine (a keychain in the search list, installed
/// provisioning profiles, a private key on disk). The engine runs them all at the end of the run, newest
/// first, after success, failure or interrupt, and reports each one (DESIGN §5).
public final class Teardowns: Sendable {
    /// One registered undo.
    public struct Entry: Sendable {
        /// The step that registered it.
        public var step: String
        /// What it undoes, for the log: `delete keychain '/tmp/…/release.keychain-db'`.
        public var description: String
        public var action: @Sendable () async throws -> Void
    }

    private let entries = Mutex<[Entry]>([])

    public init() {}

    /// Registers an undo for `step`.
    public func add(step: String, _ description: String, _ action: @escaping @Sendable () async throws -> Void) {
        entries.withLock { $0.append(Entry(step: step, description: description, action: action)) }
    }

    /// Removes and returns every registered undo, newest first: what the engine runs.
    public func takeAll() -> [Entry] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.reversed()
        }
    }

    /// How many are registered.
    public var count: Int { entries.withLock { $0.count } }
}
