import Foundation
import Synchronization

/// Replaces every known secret with `***` in any text that leaves the process.
///
/// Each secret is masked in the forms it travels in: as is, percent-encoded (URLs, form bodies) and
/// base64 (Basic authentication), so a token cannot leak through an encoding either.
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
        var forms: Set<String> = [secret]
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { forms.insert(encoded) }
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.insert(encoded) }
        let base64 = Data(secret.utf8).base64EncodedString()
        forms.insert(base64)
        // Inside a longer base64 string ("user:token") the token's encoding depends on its offset; the
        // unpadded stem of the bare encoding is what survives at offset 0 of `token:…`.
        let stem = base64.replacingOccurrences(of: "=", with: "")
        if stem.count >= 8 { forms.insert(String(stem.dropLast(2))) }
        patterns.withLock { current in
            // Longest first, so a secret containing another is masked whole.
            current = Array(Set(current).union(forms)).sorted { $0.count > $1.count }
        }
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
