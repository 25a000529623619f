/// XML's character references, for the small XML files the version engine reads and writes (`.xcscheme`, a
/// workspace's `contents.xcworkspacedata`, XML property lists) and the `metadata.xml` `itmsp.package` writes: one
/// decoder, so every reader agrees on what a value says, and one escaper.
package enum XMLEntities {
    /// Decodes `&quot;`, `&amp;`, `&lt;`, `&gt;`, `&apos;` and numeric references (`&#38;`, `&#x26;`). A reference
    /// that is none of these, or an `&` with no `;` within ten characters, is kept as written.
    package static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                result += rest[amp...]
                return result
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "quot": result += "\""
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { result.unicodeScalars.append(scalar) } else { result += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// Escapes what text content cannot hold as written: `&`, `<` and `>`; with `quotes`, also `"` and `'`, for an
    /// attribute value (either quote may delimit it).
    package static func escape(_ text: String, quotes: Bool = false) -> String {
        let content = text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        guard quotes else { return content }
        return content.replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&apos;")
    }
}
