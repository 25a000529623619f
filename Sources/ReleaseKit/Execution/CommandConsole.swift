import Foundation

/// Where a command's service writes: human lines on standard error, results on standard output. The executable gives
/// the real terminal; tests record.
package protocol CommandConsole: Sendable {
    /// Writes human output (standard error) as is.
    func write(_ text: String)
    /// Writes a program result (standard output) as is.
    func output(_ text: String)
}

extension CommandConsole {
    /// Writes `text` and a newline to human output.
    package func line(_ text: String) {
        write(text + "\n")
    }
}
