/// One request the local GitHub server received, as recorded for tests.
public struct LocalServerRequest: Sendable, Equatable {
    public var method: String
    /// Path and query as sent.
    public var target: String
    /// Header fields as sent.
    public var headers: [HTTPHeader]
    /// What the server made of the request.
    public var route: LocalServerRoute
    /// The status answered (0 when the connection was dropped on purpose).
    public var status: Int
    /// Request body bytes the server read (0 for a stalled request, recorded before it stalls).
    public var bodyBytes: Int64

    /// The first value of header `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
