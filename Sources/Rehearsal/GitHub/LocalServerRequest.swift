import ReleaseHTTP

/// One request the local GitHub server received, as recorded for tests.
package struct LocalServerRequest: Sendable, Equatable {
    package var method: String
    /// Path and query as sent.
    package var target: String
    /// Header fields as sent.
    package var headers: [HTTPHeader]
    /// What the server made of the request.
    package var route: LocalServerRoute
    /// The status answered (0 when the connection was dropped, on purpose or by the client).
    package var status: Int
    /// Request body bytes the server read (for a reset or stalled request, those read before the fault).
    package var bodyBytes: Int64

    init(_ request: RecordedRequest, route: LocalServerRoute) {
        method = request.method
        target = request.target
        headers = request.headers
        self.route = route
        status = request.status
        bodyBytes = request.bodyBytes
    }

    /// The first value of header `name`, case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}
