import Foundation

/// A response: status from `CURLINFO_RESPONSE_CODE`, the final response's headers, and the body.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    /// Header fields of the final response, in order, names as sent.
    package var headers: [HTTPHeader]
    package var body: Data
    /// Bytes of request body sent.
    package var bytesSent: Int64

    package init(status: Int, headers: [HTTPHeader] = [], body: Data = Data(), bytesSent: Int64 = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bytesSent = bytesSent
    }

    /// The first value of header `name`, case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text (lossy).
    package var text: String { String(decoding: body, as: UTF8.self) }
}
