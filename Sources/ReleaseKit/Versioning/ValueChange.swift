/// One value a bump changes: where, which key, from what, to what.
package struct ValueChange: Sendable, Codable, Equatable {
    /// The file, relative to the project folder.
    package var file: String
    /// 1-based line; `nil` for binary property lists.
    package var line: Int?
    /// The key token.
    package var key: String
    /// The value before.
    package var old: String
    /// The value after.
    package var new: String

    /// Creates a value from its parts.
    package init(file: String, line: Int?, key: String, old: String, new: String) {
        self.file = file
        self.line = line
        self.key = key
        self.old = old
        self.new = new
    }
}
