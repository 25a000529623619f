import Foundation
import ReleaseSupport

/// Why a webhook delivery was refused, or a webhook could not be created. Messages never contain the secret.
package enum WebhookError: Error, Equatable, CustomStringConvertible {
    /// The body is larger than any delivery Apple sends.
    case tooLarge(limit: Int)
    /// The signature does not verify under the secret.
    case badSignature
    /// No signature to check.
    case noSignature
    /// No secret to check with.
    case noSecret
    /// The body is not the JSON document of a delivery; `path` is its JSON path (`data.relationships.instance`).
    case invalidPayload(path: String, reason: String)
    /// `release webhook create` cannot go on.
    case create(String)

    package var description: String {
        switch self {
        case .tooLarge(let limit):
            return "the delivery is larger than \(ByteFormat.size(Int64(limit))): refused, nothing was read further"
        case .badSignature:
            return "the signature does not match the body under the secret (HMAC-SHA256 of the raw body): the delivery was refused"
        case .noSignature:
            return "no signature: pass the x-apple-signature header's value with --signature (or in $HTTP_X_APPLE_SIGNATURE)"
        case .noSecret:
            return "no secret: pass the webhook's secret with --secret (or in $APP_STORE_CONNECT_WEBHOOK_SECRET)"
        case .invalidPayload(let path, let reason):
            return "the delivery's body, at \(path): \(reason)"
        case .create(let reason):
            return reason
        }
    }
}
