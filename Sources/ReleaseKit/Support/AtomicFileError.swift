import Foundation

/// Why an atomic write failed.
package enum AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write '\(path)': \(reason)"
        }
    }
}
