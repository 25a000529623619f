import Foundation

/// Facts about the terminal, and writing to the standard streams without buffering surprises.
package enum Terminal {
    /// Whether the file descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Columns of the terminal on standard error, or 100.
    package static var width: Int {
        columns(of: 2) ?? 100
    }

    /// The columns output to `descriptor` should fit: `COLUMNS` when set, else the terminal's width (ioctl), else
    /// nil (not a terminal: lines stay whole for grep and files).
    package static func columns(of descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if let text = environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    /// Whether colour may be used: not when `NO_COLOR` is set to anything but the empty string (https://no-color.org).
    package static func allowsColour(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes `text` to standard error.
    package static func writeError(_ text: String) {
        write(text, to: 2)
    }

    /// Writes `text` to standard output.
    package static func writeOutput(_ text: String) {
        write(text, to: 1)
    }

    /// Writes all of `text` to `descriptor`, retrying short writes.
    package static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Platform.write(descriptor, $0) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
