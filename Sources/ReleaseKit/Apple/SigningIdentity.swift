/// A code signing identity `security find-identity` reports: `  1) 0123…89AB "Apple Distribution: Demo (TEAM123456)"`.
package struct SigningIdentity: Sendable, Equatable {
    /// The certificate's SHA-1, 40 hex digits as printed.
    package var sha1: String
    /// The certificate's common name.
    package var name: String

    package init(sha1: String, name: String) {
        self.sha1 = sha1
        self.name = name
    }

    /// The identities in `find-identity` output, in order, without duplicates (the unfiltered form lists valid
    /// identities twice).
    package static func parse(_ output: String) -> [SigningIdentity] {
        var identities: [SigningIdentity] = []
        for line in output.split(whereSeparator: \.isNewline) {
            let text = line.drop(while: { $0 == " " || $0 == "\t" })
            guard let close = text.firstIndex(of: ")"), text[..<close].allSatisfy(\.isNumber), !text[..<close].isEmpty else { continue }
            let rest = text[text.index(after: close)...].drop(while: { $0 == " " })
            guard let space = rest.firstIndex(of: " ") else { continue }
            let sha1 = String(rest[..<space])
            guard sha1.count == 40, sha1.allSatisfy(\.isHexDigit) else { continue }
            var name = rest[space...].drop(while: { $0 == " " })
            if name.first == "\"" { name = name.dropFirst() }
            if let quote = name.lastIndex(of: "\"") { name = name[..<quote] }
            let identity = SigningIdentity(sha1: sha1, name: String(name))
            if !identities.contains(identity) { identities.append(identity) }
        }
        return identities
    }
}
