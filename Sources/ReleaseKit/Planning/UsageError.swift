/// A command-line mistake found while planning (an unknown `--profile` or `--only` step). Exit code 64.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
