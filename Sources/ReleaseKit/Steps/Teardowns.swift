import Synchronization

/// Undo actions steps register for what they changed on the machine (a keychain in the search list, installed
/// provisioning profiles, a private key on disk). The engine runs them all at the end of the run, newest
/// first, after success, failure or interrupt, and reports each one (DESIGN §5).
package final class Teardowns: Sendable {
    /// One registered undo.
    package struct Entry: Sendable {
        /// The step that registered it.
        package var step: String
        /// What it undoes, for the log: `delete keychain '/tmp/…/release.keychain-db'`.
        package var description: String
        package var action: @Sendable () async throws -> Void
    }

    private let entries = Mutex<[Entry]>([])

    package init() {}

    /// Registers an undo for `step`.
    package func add(step: String, _ description: String, _ action: @escaping @Sendable () async throws -> Void) {
        entries.withLock { $0.append(Entry(step: step, description: description, action: action)) }
    }

    /// Removes and returns every registered undo, newest first: what the engine runs.
    package func takeAll() -> [Entry] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.reversed()
        }
    }

    /// How many are registered.
    package var count: Int { entries.withLock { $0.count } }
}
