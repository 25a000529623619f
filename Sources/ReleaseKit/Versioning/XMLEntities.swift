/// XML's character references, for the small XML files the version engine reads and writes (`.xcscheme`, a
/// workspace's `contents.xcworkspacedata`, XML property lists): one decoder, so every reader agrees on what a value
/// says.
enum XMLEntities {
    /// Decodes `&quot;`, `&amp;`, `&lt;`, `&gt;`, `&apos;` and numeric references (`&#38;`, `&#x26;`). A reference
    /// that is none of these, or an `&` with no `;` within ten characters, is kept as written.
    static func decode(_ text: String) -> String {
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

    /// Escapes what text content cannot hold as written: `&`, `<` and `>`.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
