import Foundation

/// A bug in `release` itself, reported as one rather than crashing.
package struct InternalError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { "internal error: \(message) (please report this)" }
}
