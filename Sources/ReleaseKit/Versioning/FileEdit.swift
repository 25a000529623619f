import Foundation

/// A file a bump rewrites: its bytes before and after and the values that change.
public struct FileEdit: Sendable, Equatable {
    /// Absolute path.
    public var path: String
    /// The path relative to the project folder, for output.
    public var displayPath: String
    /// The bytes the file had when the plan was made; applying checks the file still has them.
    public var original: Data
    /// The bytes to write.
    public var updated: Data
    /// Whether the file is a binary property list (no text diff).
    public var isBinary: Bool
    /// The values this edit changes, in file order.
    public var changes: [ValueChange]

    /// Creates a value from its parts.
    public init(path: String, displayPath: String, original: Data, updated: Data, isBinary: Bool, changes: [ValueChange]) {
        self.path = path
        self.displayPath = displayPath
        self.original = original
        self.updated = updated
        self.isBinary = isBinary
        self.changes = changes
    }

    /// The unified diff of a text file; `nil` for binary files.
    public var diff: String? {
        guard !isBinary else { return nil }
        return TextDiff.unified(
            old: String(decoding: original, as: UTF8.self), new: String(decoding: updated, as: UTF8.self), path: displayPath
        )
    }

    /// One line per change, `KEY: old → new`, for binary files and summaries.
    public var summary: String {
        changes.map { "\($0.key) '\($0.old)' -> '\($0.new)'" }.joined(separator: ", ")
    }
}
