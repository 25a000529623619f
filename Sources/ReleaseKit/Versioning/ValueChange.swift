/// One value a bump changes: where, which key, from what, to what.
public struct ValueChange: Sendable, Codable, Equatable {
    /// The file, relative to the project folder.
    public var file: String
    /// 1-based line; `nil` for binary property lists.
    public var line: Int?
    public var key: String
    public var old: String
    public var new: String

    public init(file: String, line: Int?, key: String, old: String, new: String) {
        self.file = file
        self.line = line
        self.key = key
        self.old = old
        self.new = new
    }
}
