import Foundation

/// A response: status from `CURLINFO_RESPONSE_CODE`, the final response's headers, and the body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header fields of the final response, in order, names as sent.
    public var headers: [HTTPHeader]
    public var body: Data
    /// Bytes of request body sent.
    public var bytesSent: Int64

    public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data(), bytesSent: Int64 = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bytesSent = bytesSent
    }

    /// The first value of header `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text (lossy).
    public var text: String { String(decoding: body, as: UTF8.self) }
}
