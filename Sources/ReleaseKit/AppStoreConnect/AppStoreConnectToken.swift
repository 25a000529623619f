import Crypto
import Foundation
import ReleaseSupport

/// A JSON Web Token for the App Store Connect API, as Apple's "Generating Tokens for API Requests" fixes it:
/// header `{"alg": "ES256", "kid": KEY_ID, "typ": "JWT"}`, payload `{"iss": ISSUER, "iat": NOW, "exp": NOW + LIFETIME,
/// "aud": "appstoreconnect-v1"}`, signed with the key's P-256 private half (the signature is the raw 64-byte
/// `r ‖ s`, base64url-encoded, as JWS requires for ES256). Tokens that expire more than 20 minutes ahead are
/// rejected, so the lifetime is capped there.
package struct AppStoreConnectToken: Sendable, Equatable {
    /// The longest lifetime Apple accepts.
    package static let maximumLifetime: TimeInterval = 20 * 60
    /// `aud` of every token.
    package static let audience = "appstoreconnect-v1"

    /// The compact serialization: `header.payload.signature`, for `Authorization: Bearer …`.
    package let text: String
    package let issuedAt: Date
    package let expiresAt: Date

    /// Signs a token for `key` valid from `now` for `lifetime` seconds (at most 20 minutes).
    package init(key: AppStoreConnectKey, now: Date, lifetime: TimeInterval = maximumLifetime) throws {
        let issued = Int(now.timeIntervalSince1970.rounded(.down))
        let expires = issued + Int(min(max(lifetime, 60), Self.maximumLifetime))
        let header = #"{"alg":"ES256","kid":"\#(JSONEscape.string(key.id))","typ":"JWT"}"#
        let payload = #"{"iss":"\#(JSONEscape.string(key.issuer))","iat":\#(issued),"exp":\#(expires),"aud":"\#(Self.audience)"}"#
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8))  // ECDSA with SHA-256 of the input
        text = signingInput + "." + Self.base64URL(signature.rawRepresentation)
        issuedAt = Date(timeIntervalSince1970: TimeInterval(issued))
        expiresAt = Date(timeIntervalSince1970: TimeInterval(expires))
    }

    /// Whether the token is still good for a request started at `date` that may take `margin` seconds.
    package func isValid(at date: Date, margin: TimeInterval = 60) -> Bool {
        date.addingTimeInterval(margin) < expiresAt
    }

    /// Base64 with the URL alphabet and no padding (RFC 7515 §2).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url without padding; nil when it is not.
    static func decodeBase64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
