/// Why a local server cannot start.
package enum LocalServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Listening failed: `(server, address, reason)`.
    case listen(String, String, String)
    /// The storage folder or its state file is unusable: `(server, path, reason)`.
    case storage(String, String, String)
    /// The server's configuration cannot be used (a key that is not a key): `(server, reason)`.
    case configuration(String, String)

    package var description: String {
        switch self {
        case .listen(let server, let address, let reason): return "\(server): cannot listen on \(address): \(reason)"
        case .storage(let server, let path, let reason): return "\(server): storage '\(path)': \(reason)"
        case .configuration(let server, let reason): return "\(server): \(reason)"
        }
    }
}
