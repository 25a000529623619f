/// Where a reported value is defined, for people and programs: a file relative to the project folder, its line
/// and the key.
package struct DefinitionLocation: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The file, relative to the folder holding the project (or absolute when outside it).
    package var file: String
    /// 1-based line; `nil` for binary property lists.
    package var line: Int?
    /// The setting or Info.plist key.
    package var key: String

    /// Creates a value from its parts.
    package init(file: String, line: Int?, key: String) {
        self.file = file
        self.line = line
        self.key = key
    }

    /// `file:line (KEY)`.
    package var description: String {
        (line.map { "\(file):\($0)" } ?? file) + " (\(key))"
    }
}
