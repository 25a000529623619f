import Foundation

/// One HTTP request: method, URL, headers, body and an optional credential.
///
/// The credential is kept apart from `headers` so the client can send it only as an `Authorization`
/// header and only to allowed hosts (``HTTPClient/Configuration/credentialHosts``).
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    /// Header fields in order; names are case-insensitive. An `Expect` header here replaces the empty one.
    public var headers: [(name: String, value: String)]
    public var body: HTTPBody
    /// The `Authorization` header value (`"Bearer …"`), sent only to credential hosts.
    public var authorization: String?
    /// Longest response body kept in memory, in bytes; larger bodies fail the request.
    public var maxResponseBytes: Int
    /// Overrides the client's retry policy for this request: ``RetryPolicy/once`` for an upload whose
    /// caller must look at the server's state before trying again.
    public var retryPolicy: RetryPolicy?
    /// Sees every body byte as libcurl pulls it (each attempt from the start), to hash a file while it uploads.
    public var bodyDigest: StreamingDigest?

    public init(
        method: String = "GET",
        url: String,
        headers: [(name: String, value: String)] = [],
        body: HTTPBody = .empty,
        authorization: String? = nil,
        maxResponseBytes: Int = 16 << 20,
        retryPolicy: RetryPolicy? = nil,
        bodyDigest: StreamingDigest? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.authorization = authorization
        self.maxResponseBytes = maxResponseBytes
        self.retryPolicy = retryPolicy
        self.bodyDigest = bodyDigest
    }

    /// The first value of header `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The host the request goes to, lower-cased, or nil when the URL has none.
    public var host: String? { URLComponents(string: url)?.host?.lowercased() }

    /// The request's URL as it may appear in messages: no user or password.
    public var redactedURL: String { Self.redact(url) }

    /// `url` without user information, for messages and logs.
    public static func redact(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.user != nil || components.password != nil else {
            return url
        }
        components.user = nil
        components.password = nil
        return components.string ?? url
    }
}
