internal import CArchive
import Foundation

/// The one place libarchive return codes become ``ArchiveError``s.
///
/// libarchive functions return `ARCHIVE_OK` (0), `ARCHIVE_EOF` (1), `ARCHIVE_RETRY` (-10), `ARCHIVE_WARN` (-20),
/// `ARCHIVE_FAILED` (-25) or `ARCHIVE_FATAL` (-30) and keep a message in the handle, read with
/// `archive_error_string` (archive_util(3), archive_read_data(3)). A warning is not a failure except where
/// the caller says so: the zip reader reports a CRC mismatch as `ARCHIVE_WARN` from `archive_read_data`.
enum LibArchive {
    /// Throws when `status` is an error (or a warning, when `warningsFail`), with libarchive's message.
    @discardableResult
    static func check(
        _ status: Int32,
        _ archive: OpaquePointer,
        _ operation: @autoclosure () -> String,
        path: String,
        warningsFail: Bool = false
    ) throws(ArchiveError) -> Int32 {
        if status >= ARCHIVE_OK { return status }
        if status == ARCHIVE_WARN && !warningsFail { return status }
        throw ArchiveError.library(operation: operation(), path: path, message: message(archive))
    }

    /// libarchive's message for the last error on `archive`, or a generic one.
    static func message(_ archive: OpaquePointer) -> String {
        if let text = archive_error_string(archive) {
            return String(cString: text)
        }
        let code = archive_errno(archive)
        return code != 0 ? String(cString: strerror(code)) : "unknown libarchive error"
    }
}
