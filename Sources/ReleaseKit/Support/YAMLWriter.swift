/// Writes YAML line by line, two spaces per level, so generated files (GitHub Actions workflows) are the same bytes
/// for the same input and read like hand-written ones.
package struct YAMLWriter: Sendable {
    package private(set) var text = ""

    package init() {}

    /// One line at `level`; the caller spells keys and quotes values with ``scalar(_:)``.
    package mutating func line(_ level: Int, _ content: String) {
        text += String(repeating: "  ", count: level) + content + "\n"
    }

    /// A `#` comment line (an empty one for a blank `#`). A line break or other control character in `content` (a
    /// pipeline name is user input) is written as an escape, so the comment stays one line and adds no YAML.
    package mutating func comment(_ content: String) {
        var line = ""
        for scalar in content.unicodeScalars {
            if let escape = Self.escape(scalar) { line += escape } else { line.unicodeScalars.append(scalar) }
        }
        text += line.isEmpty ? "#\n" : "# " + line + "\n"
    }

    /// `value` as a YAML scalar: plain when that reads back as the same string, else single-quoted (`''` for a
    /// quote). Words YAML 1.1 reads as booleans or null (`on`, `yes`, `null`), numbers, and anything with a character
    /// that means something to YAML are quoted. A value holding a line break (YAML 1.1 counts NEL, U+2028 and U+2029
    /// too), a tab or any other character YAML does not print is written in double quotes with escapes (`\n`,
    /// `\u001B`), so it reads back as the same string and can never start a line of its own.
    package static func scalar(_ value: String) -> String {
        if value.unicodeScalars.contains(where: { escape($0) != nil }) {
            var escaped = "\""
            for character in value.unicodeScalars {
                switch character {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                default:
                    if let escape = escape(character) { escaped += escape } else { escaped.unicodeScalars.append(character) }
                }
            }
            return escaped + "\""
        }
        return isPlain(value) ? value : "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The double-quoted escape of a scalar YAML cannot hold as it is: a line break (`\n`, `\r`, and YAML 1.1's NEL,
    /// line and paragraph separators), a tab, a control character, or a byte order mark; nil for the others.
    package static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF:
            return "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16, uppercase: true)
        default: return nil
        }
    }

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    private static func isPlain(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last,
            !reserved.contains(value.lowercased()), Double(value) == nil
        else { return false }
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
