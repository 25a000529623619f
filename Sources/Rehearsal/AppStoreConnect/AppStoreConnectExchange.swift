import Foundation
import ReleaseHTTP

/// One request the local App Store Connect server answered, with both bodies, for tests that check the
/// traffic against Apple's contract.
///
/// Headers are kept as sent, `Authorization` included: this is for tests, never for a summary or a log.
package struct AppStoreConnectExchange: Sendable {
    /// The operation (`buildUploads_createInstance`); nil for upload-URL parts and unknown paths.
    package var operationID: String?
    package var method: String
    /// Path and query as sent.
    package var target: String
    package var requestHeaders: [HTTPHeader]
    /// The JSON body as sent; nil for upload parts (their bytes go to disk) and bodiless requests.
    package var requestBody: Data?
    /// The status answered (0 when the connection was dropped).
    package var status: Int
    /// The body answered; nil when there was none.
    package var responseBody: Data?
    /// Why the token was refused (`the token has expired`), for a 401 the server gave on its own; never the token.
    package var authenticationFailure: String?

    /// The first value of request header `name`, case-insensitively.
    package func header(_ name: String) -> String? {
        requestHeaders.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The request body parsed as JSON.
    package var requestJSON: Any? { requestBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } }

    /// The response body parsed as JSON.
    package var responseJSON: Any? { responseBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } }
}
