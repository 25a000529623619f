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

    /// A UTF-8 `LC_CTYPE` locale, when the C library has one.
    nonisolated(unsafe) private static let utf8Locale: locale_t? =
        newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)

    /// Runs `body` with this thread's character type set to UTF-8 (`uselocale(3)`, per thread, nothing global).
    ///
    /// libarchive converts entry names between the archive's charset and "the current locale", which it reads
    /// once per handle, the first time it builds a conversion. A Swift process runs in the "C" locale, where a
    /// UTF-8 name cannot be converted and comes back empty; setting `hdrcharset` inside this call fixes the
    /// handle's notion of the current locale to UTF-8 for its whole life.
    static func withUTF8CharacterType<T>(_ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        guard let locale = utf8Locale else { return try body() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return try body()
    }
}
