import Foundation
import ReleaseHTTP
import ReleaseSupport

/// `release webhook`: verifies one App Store Connect webhook delivery and says what to resume.
///
/// The order is the point: the body is read up to ``WebhookDelivery/maxBodySize`` (one byte more is a refusal),
/// the signature is checked over those exact bytes, and only a body that verified is parsed. Nothing is written
/// anywhere, verified or not; with an API key in the environment (`APP_STORE_CONNECT_KEY_ID`,
/// `APP_STORE_CONNECT_ISSUER_ID`, `APP_STORE_CONNECT_KEY`), the resource the delivery names is read for its version
/// and build.
package enum WebhookReceiver {
    /// Where the secret may come from when `--secret` is not given.
    package static let secretVariable = "APP_STORE_CONNECT_WEBHOOK_SECRET"
    /// Where a CGI-style relay puts the `x-apple-signature` header.
    package static let signatureVariable = "HTTP_X_APPLE_SIGNATURE"

    /// Verifies `body` and works out what to resume.
    /// - Throws: ``WebhookError`` (no secret or signature, a bad signature, a body too large or not a delivery).
    package static func receive(
        body: Data, signature: String?, secret: String?, environment: [String: String]
    ) async throws -> WebhookResume {
        guard let secret = nonEmpty(secret) ?? nonEmpty(environment[secretVariable]) else { throw WebhookError.noSecret }
        guard body.count <= WebhookDelivery.maxBodySize else { throw WebhookError.tooLarge(limit: WebhookDelivery.maxBodySize) }
        guard let signature = nonEmpty(signature) ?? nonEmpty(environment[signatureVariable]) else { throw WebhookError.noSignature }
        guard WebhookSignature.isValid(signature, body: body, secret: secret) else { throw WebhookError.badSignature }
        let delivery = try WebhookDelivery(parsing: body)
        return await WebhookResume.resolve(delivery, client: client(environment: environment))
    }

    /// A client for the key in the environment, or nil when the key is not all there (the lookup is optional).
    static func client(environment: [String: String]) -> AppStoreConnectClient? {
        let names = ["APP_STORE_CONNECT_KEY_ID", "APP_STORE_CONNECT_ISSUER_ID", "APP_STORE_CONNECT_KEY"]
        let values = names.compactMap { nonEmpty(environment[$0]) }
        guard values.count == names.count, let key = try? AppStoreConnectKey(id: values[0], issuer: values[1], pem: values[2]) else {
            return nil
        }
        return try? AppStoreConnectClient(
            apiURL: AppStoreConnectClient.apiURL(environment: environment), key: key,
            http: HTTPClient(configuration: .init(environment: environment)))
    }

    /// Reads at most `limit + 1` bytes from `descriptor` (standard input): enough to tell a body that fits from one
    /// that does not, without reading the rest of an endless one.
    package static func readBody(from descriptor: Int32 = 0, limit: Int = WebhookDelivery.maxBodySize) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while data.count <= limit {
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count = buffer.withUnsafeMutableBytes { Platform.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted])) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
