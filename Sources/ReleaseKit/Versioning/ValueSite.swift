/// Exactly where a value is written: precise enough to report it (`file:line`) and to replace it without
/// touching anything else in the file.
package struct ValueSite: Sendable, Hashable {
    /// How the file stores the value, which decides how a new value is written.
    package enum Format: String, Sendable, Codable {
        /// A build setting in `project.pbxproj`.
        case pbxproj
        /// An assignment in an `.xcconfig` file.
        case xcconfig
        /// A `<string>` in an XML property list.
        case xmlPlist
        /// A key in a binary property list (no lines; rewritten as binary).
        case binaryPlist
        /// A version token in a plain text file (`VERSION`).
        case text
        /// A plain or double-quoted scalar in an XcodeGen spec (YAML or JSON).
        case yaml
        /// A single-quoted scalar in an XcodeGen spec.
        case yamlSingleQuoted
    }

    /// Absolute path of the file.
    package var path: String
    /// 1-based line of the value; `nil` for binary property lists.
    package var line: Int?
    /// The setting or property list key (`MARKETING_VERSION`, `CFBundleVersion`).
    package var key: String
    /// How the file stores the value.
    package var format: Format
    /// Byte offsets of the value's token, quotes included when ``quoted`` is true; `nil` for binary plists.
    package var range: Range<Int>?
    /// Whether the token is written in double quotes.
    package var quoted: Bool
    /// The value as written, unescaped and without quotes.
    package var rawValue: String

    /// Creates a value from its parts.
    package init(
        path: String, line: Int?, key: String, format: Format, range: Range<Int>?, quoted: Bool, rawValue: String
    ) {
        self.path = path
        self.line = line
        self.key = key
        self.format = format
        self.range = range
        self.quoted = quoted
        self.rawValue = rawValue
    }

    /// `path:line`, or `path` when there is no line.
    package var location: String {
        line.map { "\(path):\($0)" } ?? path
    }
}
