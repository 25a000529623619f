import Foundation

/// Human output: everything but program results goes to standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func line(_ text: String) {
        write(text + "\n")
    }
}
