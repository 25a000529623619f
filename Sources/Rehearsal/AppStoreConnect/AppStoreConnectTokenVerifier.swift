import Crypto
import Foundation

/// Checks App Store Connect bearer tokens the way Apple's "Generating Tokens for API Requests" describes them,
/// with its own parsing (it shares nothing with the client's signer, so a bug there cannot hide here).
///
/// Accepted: a compact JWS whose header is `alg: ES256`, `typ: JWT` and a known `kid`; whose payload has that
/// key's `iss`, `aud: appstoreconnect-v1`, an `iat` not in the future, and an `exp` in the future, at most
/// 20 minutes after `iat` and from now (60 seconds of clock skew allowed); signed with the key's P-256 private
/// half (raw `r ‖ s`, base64url). Rejections give a reason for tests; it never quotes the token.
struct AppStoreConnectTokenVerifier: Sendable {
    /// The public halves, as bytes: swift-crypto's key type is not `Sendable` on every platform.
    private let keys: [String: (issuer: String, publicKey: Data)]
    static let audience = "appstoreconnect-v1"
    static let maximumLifetime: TimeInterval = 20 * 60
    static let skew: TimeInterval = 60

    /// - Throws: ``LocalServerError/configuration(_:_:)`` for a PEM that is not a P-256 public key.
    init(keys: [LocalAppStoreConnectServer.AcceptedKey], server: String) throws {
        var table: [String: (issuer: String, publicKey: Data)] = [:]
        for key in keys {
            let pem = key.publicKeyPEM.trimmingCharacters(in: .whitespacesAndNewlines)
            let publicKey: P256.Signing.PublicKey
            if let parsed = try? P256.Signing.PublicKey(pemRepresentation: pem) {
                publicKey = parsed
            } else if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
                publicKey = privateKey.publicKey  // a .p8 given where its public half was expected
            } else {
                throw LocalServerError.configuration(server, "key '\(key.keyID)' is not a P-256 public key in PEM")
            }
            table[key.keyID] = (key.issuerID.lowercased(), publicKey.rawRepresentation)
        }
        self.keys = table
    }

    /// Why the `Authorization` header is not accepted at `now`; nil when it is.
    func rejection(of authorization: String?, now: Date) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let pieces = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return "not a compact JWS (header.payload.signature)" }
        guard let headerData = Self.base64URL(pieces[0]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any]
        else {
            return "the header is not base64url JSON"
        }
        guard header["alg"] as? String == "ES256" else { return "alg is not ES256" }
        guard header["typ"] as? String == "JWT" else { return "typ is not JWT" }
        guard let keyID = header["kid"] as? String, let key = keys[keyID] else { return "unknown kid" }
        guard let payloadData = Self.base64URL(pieces[1]),
            let payload = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
        else {
            return "the payload is not base64url JSON"
        }
        guard (payload["iss"] as? String)?.lowercased() == key.issuer else { return "iss is not the key's issuer" }
        guard payload["aud"] as? String == Self.audience else { return "aud is not \(Self.audience)" }
        guard let issued = Self.seconds(payload["iat"]), let expires = Self.seconds(payload["exp"]) else {
            return "iat or exp is missing or not a number"
        }
        let current = now.timeIntervalSince1970
        if issued > current + Self.skew { return "iat is in the future" }
        if expires <= current - Self.skew { return "the token has expired" }
        if expires - issued > Self.maximumLifetime { return "exp is more than 20 minutes after iat" }
        if expires > current + Self.maximumLifetime + Self.skew { return "exp is more than 20 minutes from now" }
        guard let signatureData = Self.base64URL(pieces[2]), signatureData.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            let publicKey = try? P256.Signing.PublicKey(rawRepresentation: key.publicKey)
        else {
            return "the signature is not 64 bytes of base64url r||s"
        }
        let signingInput = Data((pieces[0] + "." + pieces[1]).utf8)
        return publicKey.isValidSignature(signature, for: signingInput) ? nil : "the signature does not verify"
    }

    /// A JSON number (JSONSerialization gives NSNumber; a boolean is not a time).
    private static func seconds(_ value: Any?) -> TimeInterval? {
        guard let value, let number = value as? NSNumber, !AppStoreConnectEntity.isBoolean(value) else { return nil }
        return number.doubleValue
    }

    /// RFC 7515 base64url without padding; nil for any other alphabet or for padding.
    private static func base64URL(_ text: Substring) -> Data? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
