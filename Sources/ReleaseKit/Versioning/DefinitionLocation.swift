/// Where a reported value is defined, for people and programs: a file relative to the project folder, its line
/// and the key.
public struct DefinitionLocation: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The file, relative to the folder holding the project (or absolute when outside it).
    public var file: String
    /// 1-based line; `nil` for binary property lists.
    public var line: Int?
    /// The setting or Info.plist key.
    public var key: String

    /// Creates a value from its parts.
    public init(file: String, line: Int?, key: String) {
        self.file = file
        self.line = line
        self.key = key
    }

    /// `file:line (KEY)`.
    public var description: String {
        (line.map { "\(file):\($0)" } ?? file) + " (\(key))"
    }
}
