import Foundation

/// Why `release report --cost` cannot price the reports: each names the file and, where there is one, the JSON path.
package enum RunCostError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case invalid(file: String, path: String, reason: String)
    case badPrice(String)

    package var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): \(reason)"
        case .invalid(let file, let path, let reason): return "\(file): \(path): \(reason)"
        case .badPrice(let text): return "--price '\(text)': expected KIND=USD_PER_MINUTE, e.g. macos=0.08"
        }
    }
}
