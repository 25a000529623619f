/// The body of a JSON string literal (RFC 8259 §7), without its quotes: what `JSONNode` writes and what the
/// secret masker must recognise inside reports and JSON logs.
package enum JSONEscape {
    /// `text` escaped: `"` and `\`, the short forms of LF, CR and tab, `\u00XX` for other control characters,
    /// and `\/` for `/` when `slash` (Foundation's `JSONSerialization` writes that form).
    package static func string(_ text: String, slash: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "/" where slash: result += "\\/"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                result += "\\u00" + Hex.string([UInt8(control.value)])
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
