import Foundation
import X509
import _CryptoExtras

/// The private key of a signing certificate (the PEM text of `${secrets.CERTIFICATE_KEY}`), and what `signing.sync`
/// does with it: tell which certificate is its own (same public key), make a certificate signing request for a new
/// one, and hand the keychain a PKCS #1 copy. Apple issues development and distribution certificates for RSA 2048
/// keys only, so other keys are refused with a message saying so.
///
/// The key's text is never part of a description or an error.
package struct SigningKey: Sendable {
    let key: _RSA.Signing.PrivateKey
    let certificateKey: Certificate.PrivateKey

    /// Why the key cannot be used.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notPEM
        case notRSA(String)
        case tooSmall(Int)

        package var description: String {
            switch self {
            case .notPEM:
                return "it is not a PEM private key ('-----BEGIN RSA PRIVATE KEY-----' or '-----BEGIN PRIVATE KEY-----')"
            case .notRSA(let reason):
                return "it is not an RSA private key (\(reason)); Apple issues signing certificates for RSA 2048 keys: make one with 'openssl genrsa -out signing.key 2048'"
            case .tooSmall(let bits):
                return "the RSA key has \(bits) bits; Apple issues signing certificates for 2048-bit keys"
            }
        }
    }

    /// Reads a PEM private key: PKCS #1 (`RSA PRIVATE KEY`) or PKCS #8 (`PRIVATE KEY`).
    /// - Throws: ``Failure``.
    package init(pem: String) throws(Failure) {
        let text = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("-----BEGIN "), text.contains("PRIVATE KEY-----") else { throw .notPEM }
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: text)
        } catch {
            if text.hasPrefix("-----BEGIN EC PRIVATE KEY-----") { throw .notRSA("an elliptic-curve key") }
            throw .notRSA("\(type(of: error))")
        }
        guard key.keySizeInBits >= 2048 else { throw .tooSmall(key.keySizeInBits) }
        certificateKey = Certificate.PrivateKey(key)
    }

    /// Whether `certificate` (DER) is issued for this key: its public key is this key's public half.
    package func matches(certificate der: [UInt8]) -> Bool {
        guard let certificate = try? Certificate(derEncoded: der) else { return false }
        return certificate.publicKey == certificateKey.publicKey
    }

    /// A PKCS #10 certificate signing request for this key, in PEM, as App Store Connect's `csrContent` takes it.
    /// - Parameter commonName: the subject's common name (Apple replaces the subject with the team's).
    package func certificateSigningRequest(commonName: String = "release signing.sync") throws -> String {
        let csr = try CertificateSigningRequest(
            version: .v1, subject: try DistinguishedName { CommonName(commonName) }, privateKey: certificateKey,
            attributes: CertificateSigningRequest.Attributes(), signatureAlgorithm: .sha256WithRSAEncryption)
        return try csr.serializeAsPEM().pemString
    }

    /// The key as PKCS #1 PEM (`-----BEGIN RSA PRIVATE KEY-----`), what `security import -f openssl -t priv` reads.
    package var pkcs1PEM: String { key.pemRepresentation }
}
