/// Everything that can go wrong reading release health from Sentry.
///
/// Messages name the URL without credentials and never the token.
package enum SentryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Sentry refused the token (401, or 403: a token without `org:read`).
    case refused(status: Int, detail: String)
    /// Sentry could not be reached: the connection failed, or it answered 5xx after the client's retries.
    case unreachable(String)
    /// Sentry answered another status (400 for a bad query, 404 for an unknown organization).
    case api(status: Int, url: String, detail: String)
    /// The answer is not the sessions document of Sentry's contract.
    case invalidResponse(url: String, reason: String)
    /// The settings cannot make a request (an URL without a host).
    case invalidInput(String)

    package var description: String {
        switch self {
        case .refused(let status, let detail):
            return "Sentry refused the token (HTTP \(status))" + (detail.isEmpty ? "" : ": '\(detail)'")
                + "; the sessions endpoint needs a token with the org:read scope"
        case .unreachable(let reason): return "Sentry cannot be reached: \(reason)"
        case .api(let status, let url, let detail): return "Sentry answered HTTP \(status) for \(url)" + (detail.isEmpty ? "" : ": '\(detail)'")
        case .invalidResponse(let url, let reason): return "Sentry's answer for \(url) is not a sessions document: \(reason)"
        case .invalidInput(let reason): return reason
        }
    }
}
