import Foundation
internal import CArchive

/// Owns one libarchive zip writer (`archive_write_new` … `archive_write_free`).
///
/// Its bytes go through `archive_write_open2` callbacks into an ``ArchiveOutput``, which hashes them as they
/// are written. All calls are blocking: use it off the cooperative pool.
final class ArchiveWriteHandle {
    private let pointer: OpaquePointer
    private let output: ArchiveOutput
    /// The path named in errors: the final output, not the temporary file.
    private let displayPath: String

    /// Opens a zip writer with deflate `level` (0 stores).
    init(output: ArchiveOutput, level: Int, displayPath: String) throws(ArchiveError) {
        guard let archive = archive_write_new() else {
            throw ArchiveError.io(path: displayPath, reason: "out of memory")
        }
        pointer = archive
        self.output = output
        self.displayPath = displayPath
        try check(archive_write_set_format_zip(archive), "select the zip format for")
        // "compression-level=0" switches the zip writer to "store" (archive_write_set_options(3)).
        try check(archive_write_set_options(archive, "zip:compression-level=\(level)"), "set compression level \(level) for")
        // Entry names are UTF-8 (see ArchiveEntryHandle): store them so, flagged, as macOS's Archive Utility expects.
        try LibArchive.withUTF8CharacterType { () throws(ArchiveError) in
            try check(archive_write_set_options(archive, "zip:hdrcharset=UTF-8"), "set UTF-8 names for")
        }
        // Bigger blocks mean fewer write(2) calls; no padding of the last block (zip is not a tape format).
        try check(archive_write_set_bytes_per_block(archive, 1 << 16), "set the block size of")
        try check(archive_write_set_bytes_in_last_block(archive, 1), "set the last block size of")
        let context = Unmanaged.passUnretained(output).toOpaque()
        let status = archive_write_open2(archive, context, nil, { _, context, buffer, length in
            guard let context, let buffer else { return -1 }
            return Unmanaged<ArchiveOutput>.fromOpaque(context).takeUnretainedValue().write(buffer, count: length)
        }, nil, nil)
        try check(status, "open")
    }

    deinit {
        // Frees (and, if still open, closes) the writer. After a failure or cancellation the temporary file it
        // wrote to is deleted by the caller.
        archive_write_free(pointer)
    }

    /// Writes an entry's header.
    func writeHeader(_ entry: ArchiveEntryHandle, name: String) throws(ArchiveError) {
        try check(archive_write_header(pointer, entry.pointer), "add '\(name)' to")
    }

    /// Writes file data for the current entry; all of it, or throws.
    func writeData(_ buffer: UnsafeRawBufferPointer, name: String) throws(ArchiveError) {
        guard var base = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = archive_write_data(pointer, base, remaining)
            if written < 0 { try check(Int32(truncatingIfNeeded: written), "write '\(name)' to", warningsFail: true) }
            if written <= 0 {
                throw ArchiveError.library(operation: "write '\(name)' to", path: displayPath, message: "entry is larger than its header says")
            }
            base += written
            remaining -= written
        }
    }

    /// Ends the current entry (flushes its deflate stream, writes its data descriptor).
    func finishEntry(name: String) throws(ArchiveError) {
        try check(archive_write_finish_entry(pointer), "finish '\(name)' in")
    }

    /// Writes the central directory and closes the writer.
    func close() throws(ArchiveError) {
        try check(archive_write_close(pointer), "close")
    }

    private func check(_ status: Int32, _ operation: @autoclosure () -> String, warningsFail: Bool = false) throws(ArchiveError) {
        do {
            try LibArchive.check(status, pointer, operation(), path: displayPath, warningsFail: warningsFail)
        } catch {
            if output.failure != 0 {
                throw ArchiveError.io(path: displayPath, reason: String(cString: strerror(output.failure)))
            }
            throw error
        }
    }
}
