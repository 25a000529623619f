/// One value a bump changes: where, which key, from what, to what.
public struct ValueChange: Sendable, Codable, Equatable {
    /// The file, relative to the project folder.
    public var file: String
    /// 1-based line; `nil` for binary property lists.
    public var line: Int?
    /// The key token.
    public var key: String
    /// The value before.
    public var old: String
    /// The value after.
    public var new: String

    /// Creates a value from its parts.
    public init(file: String, line: Int?, key: String, old: String, new: String) {
        self.file = file
        self.line = line
        self.key = key
        self.old = old
        self.new = new
    }
}
