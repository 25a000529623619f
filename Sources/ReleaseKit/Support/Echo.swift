/// User input made safe to print inside a message: control characters escaped (so a NUL, an escape sequence
/// or a line break in a pipeline key never reaches the terminal raw) and long values cut, so a 10 MB value is
/// not echoed whole.
package enum Echo {
    /// `text` with control characters escaped (`\n`, `\t`, `\0`, `\u{1B}`) and, past `limit` characters, cut
    /// with `…` and how much was left out.
    package static func text(_ text: String, limit: Int = 80) -> String {
        var out = ""
        var count = 0
        var total = 0
        for scalar in text.unicodeScalars {
            total += 1
            guard count < limit else { continue }
            let piece = escaped(scalar)
            out += piece
            count += 1
        }
        if total > limit { out += "… (\(total - limit) more characters)" }
        return out
    }

    /// A whole message: control characters escaped except none kept; past `limit` characters the middle is
    /// left out, keeping the start (where it is) and the end (the hint), so its size is bounded.
    package static func message(_ message: String, limit: Int = 2000) -> String {
        let safe = message.unicodeScalars.contains(where: isControl) ? message.unicodeScalars.map(escaped).joined() : message
        guard safe.count > limit else { return safe }
        let head = safe.prefix(limit * 3 / 4), tail = safe.suffix(limit / 5)
        return head + "… (\(safe.count - head.count - tail.count) characters left out) …" + tail
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)  // bidi overrides
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\0": return "\\0"
        default:
            return isControl(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
        }
    }
}
