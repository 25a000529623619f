/// The one back-off formula of the tool: the wait before the attempt after `attempt` is `base · 2^(attempt−1)`,
/// at most `cap`. HTTP retries (``RetryPolicy``, which adds jitter and the server's own `Retry-After`) and a step's
/// `retry` (``Engine``) both wait by it.
package struct ExponentialBackoff: Sendable, Equatable {
    /// The wait after the first attempt.
    package var base: Duration
    /// The longest wait.
    package var cap: Duration

    package init(base: Duration, cap: Duration) {
        self.base = base
        self.cap = cap
    }

    /// The wait after attempt `attempt` (1 for the first). Doubling stops at the cap, so any attempt number, however
    /// large, gives a finite wait and what is reported is what is waited (100 retries of an hour would otherwise be
    /// 10^33 seconds).
    package func delay(afterAttempt attempt: Int) -> Duration {
        guard base > .zero else { return .zero }
        var delay = base
        var doublings = max(attempt - 1, 0)
        while doublings > 0, delay < cap {
            delay = delay * 2
            doublings -= 1
        }
        return min(delay, cap)
    }
}
