import Foundation

/// JSON text of an object tree of the kind `JSONSerialization` takes (`[String: Any]`, `[Any]`, `String`, `Bool`,
/// integers, `Double`, `NSNull`), object keys sorted by their UTF-8 bytes, slashes not escaped: what reports, JSON
/// events, `release schema` and App Store Connect request bodies are written with.
///
/// Not `JSONSerialization` with `.sortedKeys`: on Linux that sorts keys with a locale-aware comparison that opens an
/// ICU collator, which maps about a megabyte of ICU's code and data into every run that writes a report.
package enum JSONWriter {
    /// The text of `object`, or nil when something in it is not JSON (another type, a non-finite number).
    /// `pretty` writes one member or element per line, indented by two spaces, with `" : "` after keys.
    package static func text(_ object: Any, pretty: Bool = false) -> String? {
        var out = ""
        guard write(object, into: &out, pretty: pretty, indent: "") else { return nil }
        return out
    }

    /// The same as UTF-8 bytes.
    package static func data(_ object: Any, pretty: Bool = false) -> Data? {
        text(object, pretty: pretty).map { Data($0.utf8) }
    }

    private static func write(_ value: Any, into out: inout String, pretty: Bool, indent: String) -> Bool {
        switch value {
        // A number JSONSerialization's parser made (a Swift Bool or Int would also cast to NSNumber, so the
        // instance's own type decides). "c" is how its booleans report their type.
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "c"): out += number.boolValue ? "true" : "false"
            case UInt8(ascii: "f"), UInt8(ascii: "d"):
                guard let text = self.number(number.doubleValue) else { return false }
                out += text
            default: out += number.stringValue
            }
        case let text as String:
            out += "\"" + JSONEscape.string(text) + "\""
        case let flag as Bool where type(of: value) == Bool.self:
            out += flag ? "true" : "false"
        case let number as Int: out += String(number)
        case let number as Int64: out += String(number)
        case let number as Int32: out += String(number)
        case let number as UInt: out += String(number)
        case let number as UInt64: out += String(number)
        case let number as Double:
            guard let text = self.number(number) else { return false }
            out += text
        case let number as Float:
            guard let text = self.number(Double(number)) else { return false }
            out += text
        case is NSNull:
            out += "null"
        case let object as [String: Any]:
            let members = object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return container("{", "}", members, into: &out, pretty: pretty, indent: indent) { member, out, inner in
                out += "\"" + JSONEscape.string(member.key) + (pretty ? "\" : " : "\":")
                return write(member.value, into: &out, pretty: pretty, indent: inner)
            }
        case let array as [Any]:
            return container("[", "]", array, into: &out, pretty: pretty, indent: indent) { element, out, inner in
                write(element, into: &out, pretty: pretty, indent: inner)
            }
        default:
            return false
        }
        return true
    }

    private static func container<Element>(
        _ open: String, _ close: String, _ elements: [Element], into out: inout String, pretty: Bool, indent: String,
        _ element: (Element, inout String, String) -> Bool
    ) -> Bool {
        out += open
        guard !elements.isEmpty else { out += close; return true }
        let inner = pretty ? indent + "  " : indent
        for (index, item) in elements.enumerated() {
            if index > 0 { out += "," }
            if pretty { out += "\n" + inner }
            guard element(item, &out, inner) else { return false }
        }
        if pretty { out += "\n" + indent }
        out += close
        return true
    }

    /// ``NumberText``'s form; nil for NaN and infinities, which JSON cannot hold.
    private static func number(_ value: Double) -> String? {
        value.isFinite ? NumberText.string(value) : nil
    }
}
