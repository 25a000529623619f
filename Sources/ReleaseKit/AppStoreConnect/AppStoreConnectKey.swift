import Crypto
import Foundation
import ReleaseSupport

/// An App Store Connect API key: its id, the issuer it belongs to, and the private half (the `.p8` file Apple lets
/// you download once, a PKCS#8 PEM holding a P-256 key).
///
/// The PEM text normally comes from a secret (`${secrets.APP_STORE_CONNECT_KEY}`); a path to the `.p8` file works
/// too. The text is never printed: errors say what is wrong with it, not what it holds.
package struct AppStoreConnectKey: Sendable {
    /// The key's id (`kid` in the token header), for example `2X9R4HXF34`.
    package let id: String
    /// The issuer id (`iss` in the payload), a UUID from the Keys page.
    package let issuer: String
    /// The private scalar, kept as bytes: swift-crypto's key type is not `Sendable` on every platform.
    private let scalar: Data

    /// Why a key cannot be used.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case emptyKeyID
        case invalidIssuer(String)
        case notAPrivateKey(String)

        package var description: String {
            switch self {
            case .emptyKeyID: return "the API key id is empty"
            case .invalidIssuer(let issuer): return "the issuer id '\(Echo.text(issuer))' is not a UUID (it is on App Store Connect's Keys page, above the keys)"
            case .notAPrivateKey(let reason): return "the API key is not a .p8 private key (PEM text beginning with '-----BEGIN PRIVATE KEY-----'): \(reason)"
            }
        }
    }

    /// - Parameters:
    ///   - pem: the `.p8` file's text, or a path to it.
    /// - Throws: ``Problem`` for an empty id, an issuer that is not a UUID, or text that is not a P-256 key.
    package init(id: String, issuer: String, pem: String) throws {
        let id = id.trimmingCharacters(in: .whitespacesAndNewlines)
        let issuer = issuer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !id.isEmpty else { throw Problem.emptyKeyID }
        guard UUID(uuidString: issuer) != nil else { throw Problem.invalidIssuer(issuer) }
        var text = pem
        if !text.contains("-----BEGIN"), FileManager.default.fileExists(atPath: text) {
            guard let data = FileManager.default.contents(atPath: text) else { throw Problem.notAPrivateKey("cannot read the file") }
            text = String(decoding: data, as: UTF8.self)
        }
        // Secrets stored in CI often lose their line breaks ("\n" written out): put them back.
        if !text.contains("\n") && text.contains("\\n") { text = text.replacingOccurrences(of: "\\n", with: "\n") }
        do {
            scalar = try P256.Signing.PrivateKey(pemRepresentation: text.trimmingCharacters(in: .whitespacesAndNewlines)).rawRepresentation
        } catch {
            throw Problem.notAPrivateKey(text.contains("-----BEGIN") ? "the PEM does not hold a P-256 key" : "no PEM header")
        }
        self.id = id
        self.issuer = issuer
    }

    /// The private half, rebuilt from its bytes for signing.
    var privateKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: scalar) }
    }

    /// The public half in PEM, for servers that check tokens (the local stand-in).
    package var publicKeyPEM: String {
        get throws { try privateKey.publicKey.pemRepresentation }
    }
}
