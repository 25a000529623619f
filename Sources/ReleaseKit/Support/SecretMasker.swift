import Foundation
import Synchronization

/// Replaces every known secret with `***` in any text that leaves the process.
///
/// Each secret is masked in the forms it travels in (see ``forms(of:)``): as is, JSON-escaped, percent-encoded
/// (URLs, form bodies) and base64 (Basic authentication), so a token cannot leak through an encoding either.
public final class SecretMasker: Sendable {
    /// The replacement text.
    public static let mask = "***"

    private let patterns = Mutex<[String]>([])

    public init(secrets: [String] = []) {
        for secret in secrets { add(secret) }
    }

    /// Registers a secret. Empty and whitespace-only values are ignored: masking them would mask everything.
    public func add(_ secret: String) {
        guard !secret.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let forms = Self.forms(of: secret)
        patterns.withLock { current in
            // Longest first, so a secret containing another is masked whole.
            current = Array(Set(current).union(forms)).sorted { $0.count > $1.count }
        }
    }

    /// The spellings a secret takes on its way out: as is; JSON-escaped (reports, JSON logs); percent-encoded
    /// with upper- and lower-case hex, for RFC 3986's unreserved set, for query strings and for forms (space as
    /// `+`); base64 alone and inside a longer base64 text such as `user:secret` in a Basic-auth header.
    static func forms(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret, JSONEscape.string(secret), JSONEscape.string(secret, slash: true)]
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for allowed in [CharacterSet.alphanumerics, unreserved, .urlQueryAllowed, .urlPathAllowed] {
            guard let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) else { continue }
            forms.insert(encoded)
            forms.insert(lowercasingPercentEscapes(encoded))
            if secret.contains(" ") {
                let form = encoded.replacingOccurrences(of: "%20", with: "+")
                forms.insert(form)
                forms.insert(lowercasingPercentEscapes(form))
            }
        }
        forms.formUnion(base64Forms(of: Array(secret.utf8)))
        return forms.filter { !$0.isEmpty }
    }

    /// Base64 of the secret at each of the three byte alignments it can have inside a longer encoded text (after
    /// `user:` in `user:secret`, say): only the characters that depend on the secret's bytes alone, which is
    /// what appears whatever surrounds it. Also the whole padded encoding of the secret by itself.
    static func base64Forms(of bytes: [UInt8]) -> Set<String> {
        var forms: Set<String> = [Data(bytes).base64EncodedString()]
        for offset in 0..<3 {
            let encoded = Array(Data([UInt8](repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
            // Character i covers bits 6i..<6i+6 of the input; keep those inside the secret's bits.
            let first = (8 * offset + 5) / 6
            let end = (8 * (offset + bytes.count)) / 6
            guard end - first >= 8 else { continue }  // too short to be safe to mask everywhere
            forms.insert(String(decoding: encoded[first..<end], as: UTF8.self))
        }
        return forms
    }

    private static func lowercasingPercentEscapes(_ text: String) -> String {
        var out = ""
        var escape = 0
        for character in text {
            if character == "%" { escape = 2; out.append(character); continue }
            if escape > 0 { escape -= 1; out += character.lowercased(); continue }
            out.append(character)
        }
        return out
    }

    /// Whether any secret is registered.
    public var isEmpty: Bool { patterns.withLock { $0.isEmpty } }

    /// `text` with every secret replaced by `***`.
    public func mask(_ text: String) -> String {
        let current = patterns.withLock { $0 }
        guard !current.isEmpty else { return text }
        var result = text
        for pattern in current where result.contains(pattern) {
            result = result.replacingOccurrences(of: pattern, with: Self.mask)
        }
        return result
    }
}
