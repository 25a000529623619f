internal import CArchive
import Foundation

/// Reads a zip through libarchive, entry by entry, from its central directory.
///
/// Owns one libarchive read handle, freed in `deinit`. The seekable zip reader is used because only the
/// central directory says which entries are symbolic links (the external attributes), and it lets skipped
/// entries cost a seek instead of a decompression. Reading an entry's data to its end verifies its CRC-32
/// and sizes; a mismatch throws.
///
/// Calls block: use it off the cooperative pool for big archives.
package final class ZipReader {
    /// The zip being read.
    package let path: String
    private let pointer: OpaquePointer
    private var current: ZipEntry?
    private let buffer: UnsafeMutableRawBufferPointer

    /// Opens `path`.
    /// - Throws: ``ArchiveError`` when the file is missing or not a zip.
    package init(path: String) throws(ArchiveError) {
        self.path = path
        guard let archive = archive_read_new() else {
            throw ArchiveError.io(path: path, reason: "out of memory")
        }
        pointer = archive
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 64)
        try check(archive_read_support_format_zip_seekable(archive), "read zips from")
        try LibArchive.withUTF8CharacterType { () throws(ArchiveError) in
            try check(archive_read_set_options(archive, "zip:hdrcharset=UTF-8"), "read UTF-8 names from")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw ArchiveError.missingSource(path: path) }
        try check(archive_read_open_filename(archive, path, 1 << 16), "open")
    }

    deinit {
        archive_read_free(pointer)
        buffer.deallocate()
    }

    /// The next entry, or nil after the last one. Any unread data of the current entry is skipped.
    package func next() throws(ArchiveError) -> ZipEntry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(pointer, &entry)
        if status == ARCHIVE_EOF {
            current = nil
            return nil
        }
        try check(status, "read the next entry of")
        guard let entry else { throw ArchiveError.library(operation: "read the next entry of", path: path, message: "no entry") }
        current = Self.describe(entry)
        return current
    }

    /// Streams the rest of the current entry's data through `body` in chunks, then checks its CRC-32 and size.
    /// - Throws: ``ArchiveError`` on a corrupt entry (bad CRC, wrong size, bad deflate data), or what `body` throws.
    package func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = current?.path ?? "?"
        while true {
            let count = archive_read_data(pointer, buffer.baseAddress, buffer.count)
            if count < 0 {
                try check(Int32(truncatingIfNeeded: count), "read '\(name)' in", warningsFail: true)
            }
            if count <= 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The whole data of the current entry, read into memory only when it is at most `limit` bytes, then checked
    /// against its CRC-32 and size.
    ///
    /// Both sizes are checked: the size the zip declares (before anything is inflated) and the bytes actually
    /// inflated, as they come, because a declared size can lie and a deflate stream of a few kilobytes inflates
    /// to gigabytes. Entries that may be large are streamed with ``readData(_:)`` instead.
    /// - Throws: ``ArchiveError/entryTooLarge(archive:entry:declaredSize:limit:)`` past `limit`; ``ArchiveError``
    ///   for a corrupt entry.
    package func readAll(limit: Int) throws(ArchiveError) -> Data {
        let name = current?.path ?? "?"
        let declared = current?.size ?? 0
        guard declared <= Int64(limit) else {
            throw ArchiveError.entryTooLarge(archive: path, entry: name, declaredSize: declared, limit: limit)
        }
        var data = Data()
        data.reserveCapacity(Int(max(0, declared)))
        while true {
            // One byte more than the limit allows is enough to know the entry is over it.
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count = archive_read_data(pointer, buffer.baseAddress, wanted)
            if count < 0 {
                try check(Int32(truncatingIfNeeded: count), "read '\(name)' in", warningsFail: true)
            }
            if count <= 0 { return data }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if data.count > limit {
                throw ArchiveError.entryTooLarge(archive: path, entry: name, declaredSize: declared, limit: limit)
            }
        }
    }

    /// Up to `count` bytes from the current position of the current entry's data (the start, if nothing was
    /// read yet). No CRC check: the entry is not read to its end.
    package func read(upTo count: Int) throws(ArchiveError) -> [UInt8] {
        let name = current?.path ?? "?"
        var result: [UInt8] = []
        result.reserveCapacity(min(count, 1 << 20))
        while result.count < count {
            let wanted = min(buffer.count, count - result.count)
            let got = archive_read_data(pointer, buffer.baseAddress, wanted)
            if got < 0 { try check(Int32(truncatingIfNeeded: got), "read '\(name)' in", warningsFail: true) }
            if got <= 0 { break }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
        return result
    }

    // MARK: Conveniences

    /// Every entry of the zip at `path`, in stored order.
    package static func entries(at path: String) throws(ArchiveError) -> [ZipEntry] {
        let reader = try ZipReader(path: path)
        var entries: [ZipEntry] = []
        while let entry = try reader.next() { entries.append(entry) }
        return entries
    }

    /// The first `count` bytes of entry `name` (for a Mach-O header inside an `.ipa`).
    /// - Throws: ``ArchiveError/entryNotFound(archive:entry:)`` when there is no such entry.
    package static func prefix(of name: String, in path: String, count: Int) throws(ArchiveError) -> [UInt8] {
        let reader = try ZipReader(path: path)
        while let entry = try reader.next() {
            if entry.path == name { return try reader.read(upTo: count) }
        }
        throw ArchiveError.entryNotFound(archive: path, entry: name)
    }

    private static func describe(_ entry: OpaquePointer) -> ZipEntry {
        // The UTF-8 forms: the locale forms are unavailable for non-ASCII names in the "C" locale Swift runs in.
        var name = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) } ?? ""
        while name.count > 1 && name.hasSuffix("/") { name.removeLast() }
        let mode = UInt32(archive_entry_mode(entry))
        let kind: ZipEntry.Kind
        // AE_IFREG and friends are cast macros Swift cannot import; they equal the POSIX S_IF* values.
        switch mode_t(archive_entry_filetype(entry)) {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        let target = kind == .symlink ? (archive_entry_symlink_utf8(entry) ?? archive_entry_symlink(entry)).map { String(cString: $0) } : nil
        return ZipEntry(
            path: name, kind: kind, size: kind == .file ? archive_entry_size(entry) : 0,
            permissions: mode & 0o7777, symlinkTarget: target)
    }

    private func check(_ status: Int32, _ operation: @autoclosure () -> String, warningsFail: Bool = false) throws(ArchiveError) {
        try LibArchive.check(status, pointer, operation(), path: path, warningsFail: warningsFail)
    }
}
