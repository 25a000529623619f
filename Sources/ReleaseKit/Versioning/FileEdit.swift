import Foundation
import ReleaseSupport

/// A file a bump rewrites: its bytes before and after and the values that change.
package struct FileEdit: Sendable, Equatable {
    /// Absolute path.
    package var path: String
    /// The path relative to the project folder, for output.
    package var displayPath: String
    /// The bytes the file had when the plan was made; applying checks the file still has them.
    package var original: Data
    /// The bytes to write.
    package var updated: Data
    /// Whether the file is a binary property list (no text diff).
    package var isBinary: Bool
    /// The values this edit changes, in file order.
    package var changes: [ValueChange]

    /// Creates a value from its parts.
    package init(path: String, displayPath: String, original: Data, updated: Data, isBinary: Bool, changes: [ValueChange]) {
        self.path = path
        self.displayPath = displayPath
        self.original = original
        self.updated = updated
        self.isBinary = isBinary
        self.changes = changes
    }

    /// The unified diff of a text file; `nil` for binary files.
    package var diff: String? {
        guard !isBinary else { return nil }
        return TextDiff.unified(
            old: String(decoding: original, as: UTF8.self), new: String(decoding: updated, as: UTF8.self), path: displayPath
        )
    }

    /// One line per change, `KEY: old → new`, for binary files and summaries.
    package var summary: String {
        changes.map { "\($0.key) '\($0.old)' -> '\($0.new)'" }.joined(separator: ", ")
    }
}
