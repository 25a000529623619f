import Foundation

/// Why the local GitHub server cannot start.
public enum LocalServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket call failed: `(call, errno)`.
    case socket(String, Int32)
    /// The storage folder or its state file is unusable.
    case storage(String, String)

    public var description: String {
        switch self {
        case .socket(let call, let code): return "local GitHub server: \(call) failed: \(String(cString: strerror(code)))"
        case .storage(let path, let reason): return "local GitHub server: storage '\(path)': \(reason)"
        }
    }
}
