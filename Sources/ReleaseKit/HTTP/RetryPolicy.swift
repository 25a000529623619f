import Foundation
import ReleaseSupport

/// When and how long to wait before sending a request again.
///
/// Retries connection errors, 5xx, 429 and GitHub's secondary-rate-limit 403s with exponential back-off and
/// full jitter; a `Retry-After` or exhausted `X-RateLimit-Reset` from the server wins over the back-off.
/// Every wait is capped by `maxDelay`. Other 4xx are never retried: they will not change.
/// The clock and the sleep are injectable so tests run in milliseconds.
package struct RetryPolicy: Sendable {
    /// Attempts in total, including the first (1 = no retries).
    package var maxAttempts: Int
    /// The first back-off; doubles with each retry.
    package var baseDelay: Duration
    /// The longest wait, whatever the server asks for.
    package var maxDelay: Duration
    /// Whether to randomise each back-off between half and all of it.
    package var jitter: Bool
    /// The current time (for `X-RateLimit-Reset` and HTTP-date `Retry-After`).
    package var now: @Sendable () -> Date
    /// Waits; throws when the task is cancelled.
    package var sleep: @Sendable (Duration) async throws -> Void

    package init(
        maxAttempts: Int = 5,
        baseDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(60),
        jitter: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.now = now
        self.sleep = sleep
    }

    /// One attempt, no retries.
    package static let once = RetryPolicy(maxAttempts: 1)

    /// Whether a response with this status may succeed if sent again.
    package static func isRetriable(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 429, 500...599: return true
        case 403: return isSecondaryRateLimit(response)
        default: return false
        }
    }

    /// GitHub's secondary rate limit (and an exhausted primary one) answer 403 with `Retry-After`,
    /// `X-RateLimit-Remaining: 0`, or a message saying so.
    /// See https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api.
    package static func isSecondaryRateLimit(_ response: HTTPResponse) -> Bool {
        guard response.status == 403 else { return false }
        if response.header("Retry-After") != nil { return true }
        if response.header("X-RateLimit-Remaining") == "0" { return true }
        return response.text.lowercased().contains("rate limit")
    }

    /// The back-off before attempt `attempt + 1` when the server said nothing: `base · 2^(attempt-1)`, jittered.
    package func backoff(afterAttempt attempt: Int) -> Duration {
        var delay = ExponentialBackoff(base: baseDelay, cap: maxDelay).delay(afterAttempt: attempt)
        if jitter {
            let fraction = Double.random(in: 0.5...1.0)
            delay = delay * fraction
        }
        return delay
    }

    /// How long to wait before retrying after `response` to attempt `attempt`: the server's `Retry-After`
    /// or rate-limit reset when it gave one, else the back-off; always capped by `maxDelay`.
    package func delay(after response: HTTPResponse?, attempt: Int) -> Duration {
        if let response, let asked = serverDelay(response) {
            return min(asked, maxDelay)
        }
        return backoff(afterAttempt: attempt)
    }

    /// The wait the server asked for, if any.
    func serverDelay(_ response: HTTPResponse) -> Duration? {
        if let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(value) { return .seconds(max(0, seconds)) }
            if let date = Timestamp.parseHTTPDate(value) {
                return .milliseconds(max(0, Int(date.timeIntervalSince(now()) * 1000)))
            }
        }
        if response.header("X-RateLimit-Remaining") == "0",
            let reset = response.header("X-RateLimit-Reset").flatMap({ TimeInterval($0) })
        {
            let wait = reset - now().timeIntervalSince1970
            return .milliseconds(max(0, Int(wait * 1000)))
        }
        return nil
    }
}
