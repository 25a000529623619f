import Foundation

/// The unit of a progress report.
package enum ProgressUnit: String, Sendable, Codable {
    case bytes, items
}
