import Crypto
import Foundation
import ReleaseSupport

/// The signature App Store Connect puts on each webhook delivery, and its check.
///
/// What Apple says ("Configuring and parsing App Store Connect API webhook notifications",
/// https://developer.apple.com/documentation/appstoreconnectapi/configuring-webhook-notifications): "The security
/// protocol for webhooks is hash-based message authentication code (HMAC)"; you choose the secret as `secret` in
/// `WebhookCreateRequest.data.attributes`; "App Store Connect creates a hash signature using the secret and includes
/// it in each POST. The signature resides in the payload header as x-apple-signature." Apple's text stops there: it
/// names neither the hash function nor the header's format. The alternative-marketplace webhook documentation
/// (`MarketplaceWebhookUpdateRequest.Data.Attributes.secret`) points at GitHub's "Validating webhook deliveries"
/// (HMAC-SHA256 of the raw body, `sha256=<hex>`), and receivers written against real deliveries compute HMAC-SHA256
/// over the raw body and read the header as `hmacsha256=<64 hex digits>` or as the bare digest (see
/// `../shared/reference/app-store-connect/README.md`, "Webhook payloads and how deliveries are signed").
///
/// So the check is HMAC-SHA256 of the exact body bytes under the secret, and the header may be the digest in hex
/// (either case) or base64, bare or after `hmacsha256=` / `sha256=`. Every form carries the same 32 bytes; accepting
/// several spellings does not weaken the check, which compares those bytes in constant time
/// (`HMAC.isValidAuthenticationCode`). ``sign(_:secret:)`` writes the form the stand-in sends, `hmacsha256=<hex>`.
package enum WebhookSignature {
    /// The header Apple puts the signature in (HTTP header names are case-insensitive).
    package static let header = "x-apple-signature"

    /// `hmacsha256=<lower-case hex>` of `body` under `secret`.
    package static func sign(_ body: Data, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "hmacsha256=" + Hex.string(code)
    }

    /// Whether `signature` (the header's value) is the HMAC-SHA256 of `body` under `secret`. A value that is not
    /// 32 bytes in one of the accepted spellings is refused before any comparison; the comparison itself takes the
    /// same time wherever the bytes differ.
    package static func isValid(_ signature: String, body: Data, secret: String) -> Bool {
        guard !secret.isEmpty, let digest = digest(in: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(digest, authenticating: body, using: SymmetricKey(data: Data(secret.utf8)))
    }

    /// The 32 bytes a header value spells, or nil when it spells none.
    static func digest(in signature: String) -> Data? {
        var value = signature.trimmingCharacters(in: .whitespaces)
        guard value.utf8.count <= 128 else { return nil }
        for prefix in ["hmacsha256=", "sha256="] where value.lowercased().hasPrefix(prefix) {
            value = String(value.dropFirst(prefix.count))
            break
        }
        if value.utf8.count == 64, let bytes = Hex.bytes(value) { return Data(bytes) }
        if let bytes = Data(base64Encoded: value), bytes.count == 32 { return bytes }
        return nil
    }
}
