import ReleaseSupport

/// Expands the RFC 6570 templates GitHub returns, such as `upload_url`'s `…/assets{?name,label}`.
///
/// Supports simple (`{var}`), form-style query (`{?a,b}`) and continuation (`{&a,b}`) expressions, which is
/// what GitHub's hypermedia URLs use. Values are percent-encoded except RFC 3986 unreserved characters;
/// undefined variables are left out. See https://www.rfc-editor.org/rfc/rfc6570#section-3.2.8.
package enum URITemplate {
    /// `template` with `variables` substituted.
    package static func expand(_ template: String, _ variables: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            var expression = rest[rest.index(after: open)..<close]
            var op: Character?
            if let first = expression.first, first == "?" || first == "&" {
                op = first
                expression = expression.dropFirst()
            }
            let names = expression.split(separator: ",").map { String($0) }
            let defined = names.compactMap { name in variables[name].map { (name, encode($0)) } }
            switch op {
            case "?", "&":
                if !defined.isEmpty {
                    result += String(op == "?" ? "?" : "&") + defined.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
                }
            default:
                result += defined.map(\.1).joined(separator: ",")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Percent-encodes everything except RFC 3986 unreserved characters, byte by byte in UTF-8.
    package static func encode(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + Hex.string([byte], uppercase: true)
            }
        }
        return encoded
    }
}
