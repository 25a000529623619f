import Foundation
import ReleaseKit

/// One request the local App Store Connect server answered, with both bodies, for tests that check the
/// traffic against Apple's contract.
///
/// Headers are kept as sent, `Authorization` included: this is for tests, never for a summary or a log.
public struct AppStoreConnectExchange: Sendable {
    /// The operation (`buildUploads_createInstance`); nil for upload-URL parts and unknown paths.
    public var operationID: String?
    public var method: String
    /// Path and query as sent.
    public var target: String
    public var requestHeaders: [HTTPHeader]
    /// The JSON body as sent; nil for upload parts (their bytes go to disk) and bodiless requests.
    public var requestBody: Data?
    /// The status answered (0 when the connection was dropped).
    public var status: Int
    /// The body answered; nil when there was none.
    public var responseBody: Data?
    /// Why the token was refused (`the token has expired`), for a 401 the server gave on its own; never the token.
    public var authenticationFailure: String?

    /// The first value of request header `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        requestHeaders.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The request body parsed as JSON.
    public var requestJSON: Any? { requestBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } }

    /// The response body parsed as JSON.
    public var responseJSON: Any? { responseBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } }
}
