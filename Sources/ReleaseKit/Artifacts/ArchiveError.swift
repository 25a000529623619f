import ReleaseSupport

/// Why writing, reading or checking a zip archive failed.
///
/// Messages are lower-case, name the path and quote the offending value; libarchive's own message is kept
/// verbatim after a colon.
package enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libarchive refused an operation: `(operation, path, libarchive's message)`.
    case library(operation: String, path: String, message: String)
    /// A file could not be opened, read or written: `(path, reason)`.
    case io(path: String, reason: String)
    /// The path to zip does not exist.
    case missingSource(path: String)
    /// The tree holds a file zip cannot store (socket, FIFO, device).
    case unsupportedFileType(path: String, type: String)
    /// A file changed size while it was being zipped.
    case fileChanged(path: String, expected: Int64, actual: Int64)
    /// Two sources would give entries with the same name.
    case duplicateEntry(String)
    /// The compression level is outside 0...9.
    case invalidLevel(Int)
    /// The zip has no entry with this name.
    case entryNotFound(archive: String, entry: String)
    /// An entry that would be read into memory is over the limit, by its declared size or by what it inflates to
    /// (a declared size can lie): `(archive, entry, declared size, limit in bytes)`.
    case entryTooLarge(archive: String, entry: String, declaredSize: Int64, limit: Int)

    package var description: String {
        switch self {
        case .library(let operation, let path, let message):
            return "cannot \(operation) '\(path)': \(message)"
        case .io(let path, let reason):
            return "cannot access '\(path)': \(reason)"
        case .missingSource(let path):
            return "no such file or directory '\(path)'"
        case .unsupportedFileType(let path, let type):
            return "cannot zip '\(path)': unsupported file type '\(type)'"
        case .fileChanged(let path, let expected, let actual):
            return "file '\(path)' changed while being zipped: expected \(expected) bytes, read \(actual)"
        case .duplicateEntry(let name):
            return "two sources give the same entry '\(name)'"
        case .invalidLevel(let level):
            return "compression level '\(level)' is not between 0 and 9"
        case .entryNotFound(let archive, let entry):
            return "'\(archive)' has no entry '\(entry)'"
        case .entryTooLarge(let archive, let entry, let declared, let limit):
            let most = "the \(ByteFormat.size(Int64(limit))) read into memory"
            return declared > Int64(limit)
                ? "entry '\(entry)' of '\(archive)' declares \(declared) bytes (\(ByteFormat.size(declared))), more than \(most)"
                : "entry '\(entry)' of '\(archive)' declares \(declared) bytes but inflates to more than \(most)"
        }
    }
}
