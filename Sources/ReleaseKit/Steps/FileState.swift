import Foundation

/// Whether a path a step needs is there.
package enum FileState: Sendable, Equatable {
    case exists
    case missing
    /// An upstream step will create it.
    case promised(by: String)
}
