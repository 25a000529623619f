import Foundation

/// A bug in `release` itself, reported as one rather than crashing.
public struct InternalError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "internal error: \(message) (please report this)" }
}
