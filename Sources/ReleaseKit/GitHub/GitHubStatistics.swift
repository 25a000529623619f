import Synchronization

/// Counters of what a ``GitHubClient`` sent: API requests (every attempt, uploads included) and bytes of
/// asset bodies. Shared by the client's copies; the benchmark checks a re-run makes ≤ 3 calls per asset
/// and uploads 0 bytes.
package final class GitHubStatistics: Sendable {
    private let counters = Mutex<(requests: Int, bytes: Int64)>((0, 0))

    package init() {}

    /// HTTP requests sent, retries included.
    package var requests: Int { counters.withLock { $0.requests } }
    /// Asset body bytes sent, partial and repeated uploads included.
    package var bytesUploaded: Int64 { counters.withLock { $0.bytes } }

    func addRequest() { counters.withLock { $0.requests += 1 } }
    func addBytes(_ count: Int64) { counters.withLock { $0.bytes += count } }
}
