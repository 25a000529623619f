/// Writes YAML line by line, two spaces per level, so generated files (GitHub Actions workflows) are the same bytes
/// for the same input and read like hand-written ones.
public struct YAMLWriter: Sendable {
    public private(set) var text = ""

    public init() {}

    /// One line at `level`; the caller spells keys and quotes values with ``scalar(_:)``.
    public mutating func line(_ level: Int, _ content: String) {
        text += String(repeating: "  ", count: level) + content + "\n"
    }

    /// A `#` comment line (an empty one for a blank `#`).
    public mutating func comment(_ content: String) {
        text += content.isEmpty ? "#\n" : "# " + content + "\n"
    }

    /// `value` as a YAML scalar: plain when that reads back as the same string, else single-quoted (`''` for a
    /// quote). Words YAML 1.1 reads as booleans or null (`on`, `yes`, `null`), numbers, and anything with a character
    /// that means something to YAML are quoted. Line breaks are never plain; they are written as `\n` in double quotes.
    public static func scalar(_ value: String) -> String {
        if value.contains("\n") || value.contains("\r") || value.contains("\t") {
            var escaped = "\""
            for character in value.unicodeScalars {
                switch character {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped + "\""
        }
        return isPlain(value) ? value : "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    private static func isPlain(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last,
              !reserved.contains(value.lowercased()), Double(value) == nil else { return false }
        let safe: (Unicode.Scalar) -> Bool = { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-_./@+=() ,".unicodeScalars.contains(scalar)
        }
        // A plain scalar may not start with an indicator or end with a space, and ", " mid-way is fine outside flow
        // collections, but the workflow writes some lists in flow style: no comma at all, to be safe.
        return value.unicodeScalars.allSatisfy(safe) && !value.contains(",") && first != "-" && first != " " && last != " "
            && !value.contains(": ") && !value.contains(" #")
    }
}
