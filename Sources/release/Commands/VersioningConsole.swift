import Foundation

/// Human output of `release version` and `release bump`: everything but program results goes to standard error.
enum VersioningConsole {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func line(_ text: String) {
        write(text + "\n")
    }
}
