import ReleaseHTTP

/// One request a local server received, as recorded for tests and rehearsal summaries.
///
/// Recorded before the answer is written, so a client that got its answer finds its request in the log, and
/// before a connection is dropped on purpose (reset, stall).
package struct RecordedRequest: Sendable, Equatable {
    /// The method as sent (`POST`).
    package var method: String
    /// Path and query as sent (`/hooks/T000/B000?x=1`).
    package var target: String
    /// Header fields as sent.
    package var headers: [HTTPHeader]
    /// Request body bytes the server read.
    package var bodyBytes: Int64
    /// Lower-case hex SHA-256 of the body, when the server hashed it (the recording server always does).
    package var bodySHA256: String?
    /// The status answered (0 when the connection was dropped, on purpose or by the client).
    package var status: Int
    /// The body, when the server kept it: the recording server keeps bodies of at most
    /// ``RecordingServer/keptBodyLimit`` bytes (webhook messages), so tests can compare them byte for byte.
    package var body: [UInt8]? = nil

    /// The path without the query, percent-encoded as sent.
    package var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The query without the `?`, nil when there is none.
    package var query: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The first value of header `name`, case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}
