import Foundation
import ReleaseSupport

/// One HTTP request: method, URL, headers, body and an optional credential.
///
/// The credential is kept apart from `headers` so the client can send it only as an `Authorization`
/// header and only to allowed hosts (``HTTPClient/Configuration/credentialHosts``).
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    /// Header fields in order; names are case-insensitive. An `Expect` header here replaces the empty one.
    package var headers: [(name: String, value: String)]
    package var body: HTTPBody
    /// The `Authorization` header value (`"Bearer …"`), sent only to credential hosts.
    package var authorization: String?
    /// Longest response body kept in memory, in bytes; larger bodies fail the request.
    package var maxResponseBytes: Int
    /// Overrides the client's retry policy for this request: ``RetryPolicy/once`` for an upload whose
    /// caller must look at the server's state before trying again.
    package var retryPolicy: RetryPolicy?
    /// Sees every body byte as libcurl pulls it (each attempt from the start), to hash a file while it uploads.
    package var bodyDigest: StreamingDigest?

    package init(
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
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The host the request goes to, lower-cased, or nil when the URL has none.
    package var host: String? { URLComponents(string: url)?.hostWithoutIDNA?.lowercased() }

    /// The request's URL as it may appear in messages: no user or password.
    package var redactedURL: String { Self.redact(url) }

    /// The parts of `url` when it is an `http` or `https` URL (either case) with a host: the URLs the client sends
    /// to, and the ones options that name an endpoint accept; nil for anything else.
    package static func httpComponents(_ url: String) -> URLComponents? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            components.hostWithoutIDNA?.isEmpty == false
        else { return nil }
        return components
    }

    /// `url` without user information, for messages and logs.
    package static func redact(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.user != nil || components.password != nil else {
            return url
        }
        components.user = nil
        components.password = nil
        return components.string ?? url
    }
}

extension URLComponents {
    /// What `host` returns, without asking ICU when the answer cannot differ from the host as written. `host`
    /// decodes an internationalised name (`xn--…` labels) through ICU's UTS #46 transcoder, which loads ICU's
    /// normalisation data: 0.5 MB of peak memory in every upload for a host such as `api.github.com` or
    /// `127.0.0.1`, which decodes to itself. A host of ASCII characters with no `xn--` label, percent escape or IP
    /// literal decodes to itself (UTS #46 maps ASCII letters to lower case, and `host` then keeps the original
    /// spelling), so it is returned as written; any other host goes through `host`.
    package var hostWithoutIDNA: String? {
        guard let written = encodedHost else { return host }
        let plain = written.utf8.allSatisfy { byte in
            byte < 0x80 && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "[")
        }
        // Foundation gives up on a host longer than 2,048 bytes (nil): so does this, by asking it.
        guard plain, written.utf8.count <= 2048, !written.lowercased().contains("xn--") else { return host }
        return written
    }
}
