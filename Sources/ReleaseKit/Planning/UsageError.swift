/// A command-line mistake found while planning (an unknown `--profile` or `--only` step). Exit code 64.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
