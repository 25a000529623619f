import Foundation

/// Whether a path a step needs is there.
public enum FileState: Sendable, Equatable {
    case exists
    case missing
    /// An upstream step will create it.
    case promised(by: String)
}
