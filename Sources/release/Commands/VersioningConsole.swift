import Foundation
import ReleaseSupport

/// Human output of `release version` and `release bump`: everything but program results goes to standard error.
enum VersioningConsole {
    static func write(_ text: String) {
        Terminal.writeError(text)
    }

    static func line(_ text: String) {
        write(text + "\n")
    }
}
