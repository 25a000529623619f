/// Everything that can go wrong sending an HTTP request.
///
/// Messages name the URL without credentials (``HTTPRequest/redact(_:)``) and never include header values.
package enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL cannot be parsed or uses a scheme other than `http`/`https`.
    case invalidURL(String)
    /// libcurl failed the transfer: `code` is the `CURLcode`, `message` curl's own text (`CURLOPT_ERRORBUFFER`).
    case transport(method: String, url: String, code: Int, message: String)
    /// A credential was about to be sent to a host that is not allowed to receive it.
    case credentialNotAllowed(host: String)
    /// The request would leave the hosts this client may reach (a rehearsal keeps everything on the loopback).
    case hostNotAllowed(host: String, url: String)
    /// The response body was larger than the client keeps in memory.
    case responseTooLarge(url: String, limit: Int)
    /// The request body file cannot be read.
    case cannotReadBody(path: String, reason: String)
    /// The server answered with a status the caller did not accept.
    case unexpectedStatus(method: String, url: String, status: Int, message: String)
    /// libcurl could not be set up (out of memory, missing feature): a bug or a broken installation.
    case setup(String)

    /// `CURLcode`s caused by the network or the peer, which a retry may cure.
    /// See https://curl.se/libcurl/c/libcurl-errors.html.
    static let retriableCurlCodes: Set<Int> = [
        5, 6, 7,  // couldn't resolve proxy / host, couldn't connect
        16,  // HTTP/2 framing
        18,  // partial file
        26,  // read error: can't happen for a regular file, but a remounted volume can
        28,  // operation timed out (including the stall timeout)
        52,  // got nothing
        55, 56,  // send / receive failure (connection reset)
        92,  // HTTP/2 stream error
    ]

    /// Whether retrying the same request may succeed.
    package var isRetriable: Bool {
        switch self {
        case .transport(_, _, let code, _): return Self.retriableCurlCodes.contains(code)
        default: return false
        }
    }

    /// Whether the host (or proxy) name did not resolve (`CURLE_COULDNT_RESOLVE_PROXY`/`_HOST`): on a machine
    /// without DNS, or with a misspelt host, every retry fails the same way.
    package var isNameResolutionFailure: Bool {
        if case .transport(_, _, let code, _) = self { return code == 5 || code == 6 }
        return false
    }

    /// What went wrong without the method and URL, for a line that names them already.
    package var reason: String {
        if case .transport(_, _, let code, let message) = self { return "\(message) (curl error \(code))" }
        return description
    }

    /// Whether the transfer stopped because nothing moved for the stall timeout or the whole timeout ran out.
    package var isTimeout: Bool {
        if case .transport(_, _, 28, _) = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .invalidURL(let url):
            return "invalid URL '\(url)'"
        case .transport(let method, let url, let code, let message):
            return "\(method) \(url) failed: \(message) (curl error \(code))"
        case .credentialNotAllowed(let host):
            return "refusing to send credentials to host '\(host)': only the API and uploads hosts may receive them"
        case .hostNotAllowed(let host, let url):
            return "refusing to connect to '\(host)' for \(url): this run may only reach the local stand-ins on 127.0.0.1"
        case .responseTooLarge(let url, let limit):
            return "response from \(url) is larger than \(limit) bytes"
        case .cannotReadBody(let path, let reason):
            return "cannot read request body '\(path)': \(reason)"
        case .unexpectedStatus(let method, let url, let status, let message):
            return message.isEmpty ? "\(method) \(url) returned HTTP \(status)" : "\(method) \(url) returned HTTP \(status): \(message)"
        case .setup(let message):
            return "cannot set up libcurl: \(message)"
        }
    }
}
