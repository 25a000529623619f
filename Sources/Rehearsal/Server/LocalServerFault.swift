/// A failure a local server injects into one matching request, to prove clients survive it.
///
/// The connection-level faults (reset, stall) are the same for every server; the status faults are answered in
/// each service's own error shape.
package enum LocalServerFault: Sendable, Equatable {
    /// Reads the whole upload, leaves the asset `starter`, answers 502.
    case badGatewayAfterBody
    /// Stores the upload completely (`uploaded`), then answers 504 as if it had failed.
    case gatewayTimeoutAfterUpload
    /// Reads `afterBytes` of the body, then resets the connection (RST); the asset stays `starter`.
    case resetMidBody(afterBytes: Int64)
    /// Reads `afterBytes` of the body, then stops reading for `seconds` before closing; the asset stays `starter`.
    case stall(afterBytes: Int64, seconds: Double)
    /// 403 with GitHub's secondary-rate-limit message and `Retry-After`.
    case secondaryRateLimit(retryAfter: Int)
    /// 429 with `Retry-After`.
    case tooManyRequests(retryAfter: Int)
    /// Any status with a JSON `message`.
    case status(Int, message: String)
}
