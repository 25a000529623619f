import Foundation

/// The unit of a progress report.
public enum ProgressUnit: String, Sendable, Codable {
    case bytes, items
}
