/// One side effect a step would have, as shown by `release run --dry-run`.
package enum PlannedEffect: Sendable, Equatable {
    /// A command that would run, argv exactly as it would be executed.
    case command(argv: [String], directory: String?)
    /// A file that would be written; `diff` is a unified diff for text files that exist already.
    case writeFile(path: String, diff: String?, detail: String?)
    /// A file or folder that would be removed.
    case delete(path: String)
    /// A file or folder that would be moved.
    case move(from: String, to: String)
    /// An HTTP request that would be sent (never with credentials in it).
    case request(method: String, url: String, detail: String?)
    /// Anything else worth saying.
    case note(String)
}
