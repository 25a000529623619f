import Foundation

/// Writes the zip container around entry data: local headers, data descriptors, the central directory and
/// the end records, with Zip64 extensions where a size, an offset or the entry count needs them.
///
/// The layout follows PKWARE's APPNOTE.TXT (https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT):
/// §4.3.7 local header, §4.3.9 data descriptor, §4.3.12 central header, §4.3.14–16 end records, §4.5.3 the
/// Zip64 extra field. Entries whose CRC and sizes are known before their data (folders, links, one-chunk
/// files, reused entries) carry them in the local header, as `zip` writes them; entries streamed chunk by
/// chunk set general purpose bit 3 and follow their data with a descriptor, so nothing is ever rewritten and
/// the SHA-256 of ``ArchiveOutput`` is the digest of the final bytes. Unix modes go in the external attributes
/// ("made by" Unix), times in the DOS field and the "UT" extra field, owners in the "ux" extra field, as
/// Info-ZIP does; in deterministic mode there are no times (DOS 1980-01-01 00:00) and no owners.
final class ZipContainerWriter {
    /// What the central directory needs to know about an entry already written.
    struct Record {
        var name: [UInt8]
        var flags: UInt16
        var method: UInt16
        var dosTime: UInt16
        var dosDate: UInt16
        var crc: UInt32
        var compressedSize: Int64
        var size: Int64
        var offset: Int64
        var externalAttributes: UInt32
        var extra: [UInt8]
        var needsZip64: Bool
    }

    /// An entry's header fields, before its data.
    struct Header {
        var name: String
        var mode: UInt32
        var isDirectory: Bool
        var modificationTime: Int
        var uid: UInt32
        var gid: UInt32
    }

    private let output: ArchiveOutput
    private let deterministic: Bool
    /// The path named in errors: the final output, not the temporary file.
    private let displayPath: String
    private var buffer: [UInt8] = []
    private var records: [Record] = []
    private(set) var offset: Int64 = 0
    private var open: Record?

    init(output: ArchiveOutput, deterministic: Bool, displayPath: String) {
        self.output = output
        self.displayPath = displayPath
        self.deterministic = deterministic
        buffer.reserveCapacity(1 << 17)
    }

    /// Writes a whole entry whose CRC and sizes are known: a folder, a link, a one-chunk file or a reused entry.
    /// `data` is called to write the entry's (already compressed) bytes with ``writeData(_:)``.
    func writeEntry(_ header: Header, method: UInt16, crc: UInt32, compressedSize: Int64, size: Int64, data: () throws -> Void) throws {
        let zip64 = size >= 0xFFFF_FFFF || compressedSize >= 0xFFFF_FFFF
        var record = makeRecord(header, method: method, streamed: false, zip64: zip64)
        record.crc = crc
        record.compressedSize = compressedSize
        record.size = size
        writeLocalHeader(record)
        try data()
        records.append(record)
    }

    /// Starts an entry whose data follows in pieces and whose CRC and sizes come in ``endStreamedEntry``.
    func beginStreamedEntry(_ header: Header, method: UInt16, size: Int64) {
        // Deflate can grow incompressible data slightly: decide on Zip64 with room to spare.
        let zip64 = size >= 0xFFFF_FFFF - (size >> 8) - (1 << 20)
        let record = makeRecord(header, method: method, streamed: true, zip64: zip64)
        writeLocalHeader(record)
        open = record
    }

    /// Ends the streamed entry with its data descriptor.
    func endStreamedEntry(crc: UInt32, compressedSize: Int64, size: Int64) throws {
        guard var record = open else { return }
        open = nil
        record.crc = crc
        record.compressedSize = compressedSize
        record.size = size
        append32(0x0807_4B50)
        append32(crc)
        if record.needsZip64 {
            append64(UInt64(compressedSize))
            append64(UInt64(size))
        } else {
            append32(UInt32(compressedSize))
            append32(UInt32(size))
        }
        records.append(record)
        try flushIfFull()
    }

    /// Writes entry data (compressed or stored bytes).
    func writeData(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.count < 1 << 14 {
            buffer.append(contentsOf: bytes)
            offset += Int64(bytes.count)
            try flushIfFull()
            return
        }
        try flush()
        try write(bytes)
        offset += Int64(bytes.count)
    }

    /// Writes the central directory and end records, then flushes everything to the file.
    func finish() throws {
        let start = offset
        for record in records {
            let sizesOverflow = record.needsZip64 || record.size >= 0xFFFF_FFFF || record.compressedSize >= 0xFFFF_FFFF
            let offsetOverflows = record.offset >= 0xFFFF_FFFF
            var zip64: [UInt8] = []
            if sizesOverflow {
                appendLE(&zip64, UInt64(record.size), 8)
                appendLE(&zip64, UInt64(record.compressedSize), 8)
            }
            if offsetOverflows { appendLE(&zip64, UInt64(record.offset), 8) }
            var extra: [UInt8] = []
            if !zip64.isEmpty {
                appendLE(&extra, 0x0001, 2)
                appendLE(&extra, UInt64(zip64.count), 2)
                extra += zip64
            }
            // "UT" holds only the flags and modification time in both headers, so the local extra fields serve.
            extra += record.extra
            append32(0x0201_4B50)
            append16(3 << 8 | 20)  // made by: Unix, spec 2.0
            append16(sizesOverflow || offsetOverflows ? 45 : 20)
            append16(record.flags)
            append16(record.method)
            append16(record.dosTime)
            append16(record.dosDate)
            append32(record.crc)
            append32(sizesOverflow ? 0xFFFF_FFFF : UInt32(record.compressedSize))
            append32(sizesOverflow ? 0xFFFF_FFFF : UInt32(record.size))
            append16(UInt16(record.name.count))
            append16(UInt16(extra.count))
            append16(0)  // comment
            append16(0)  // disk
            append16(0)  // internal attributes
            append32(record.externalAttributes)
            append32(offsetOverflows ? 0xFFFF_FFFF : UInt32(record.offset))
            buffer += record.name
            buffer += extra
            offset += Int64(record.name.count + extra.count)
            try flushIfFull()
        }
        let size = offset - start
        let count = records.count
        if count >= 0xFFFF || size >= 0xFFFF_FFFF || start >= 0xFFFF_FFFF {
            let zip64End = offset
            append32(0x0606_4B50)
            append64(44)
            append16(3 << 8 | 45)
            append16(45)
            append32(0)
            append32(0)
            append64(UInt64(count))
            append64(UInt64(count))
            append64(UInt64(size))
            append64(UInt64(start))
            append32(0x0706_4B50)
            append32(0)
            append64(UInt64(zip64End))
            append32(1)
        }
        append32(0x0605_4B50)
        append16(0)
        append16(0)
        append16(UInt16(min(count, 0xFFFF)))
        append16(UInt16(min(count, 0xFFFF)))
        append32(UInt32(min(size, 0xFFFF_FFFF)))
        append32(UInt32(min(start, 0xFFFF_FFFF)))
        append16(0)
        try flush()
    }

    // MARK: - Headers

    private func makeRecord(_ header: Header, method: UInt16, streamed: Bool, zip64: Bool) -> Record {
        let name = Array(header.name.utf8)
        var flags: UInt16 = streamed ? 0x0008 : 0
        if name.contains(where: { $0 >= 0x80 }) { flags |= 0x0800 }  // bit 11: the name is UTF-8
        let (time, date) = deterministic ? (UInt16(0), UInt16(0x21)) : Self.dosTime(header.modificationTime)
        var extra: [UInt8] = []
        if !deterministic {
            // "UT": flags (modification time present) and the time; "ux": version 1, 4-byte uid and gid.
            appendLE(&extra, 0x5455, 2); appendLE(&extra, 5, 2); extra.append(1)
            appendLE(&extra, UInt64(UInt32(truncatingIfNeeded: max(0, min(header.modificationTime, Int(Int32.max))))), 4)
            appendLE(&extra, 0x7875, 2); appendLE(&extra, 11, 2); extra.append(1)
            extra.append(4); appendLE(&extra, UInt64(header.uid), 4)
            extra.append(4); appendLE(&extra, UInt64(header.gid), 4)
        }
        let attributes = header.mode << 16 | (header.isDirectory ? 0x10 : 0)
        return Record(
            name: name, flags: flags, method: method, dosTime: time, dosDate: date, crc: 0, compressedSize: 0, size: 0,
            offset: offset, externalAttributes: attributes, extra: extra, needsZip64: zip64)
    }

    private func writeLocalHeader(_ record: Record) {
        let streamed = record.flags & 0x0008 != 0
        var extra: [UInt8] = []
        if record.needsZip64 {
            appendLE(&extra, 0x0001, 2)
            appendLE(&extra, 16, 2)
            appendLE(&extra, streamed ? 0 : UInt64(record.size), 8)
            appendLE(&extra, streamed ? 0 : UInt64(record.compressedSize), 8)
        }
        extra += record.extra
        append32(0x0403_4B50)
        append16(record.needsZip64 ? 45 : 20)
        append16(record.flags)
        append16(record.method)
        append16(record.dosTime)
        append16(record.dosDate)
        append32(streamed ? 0 : record.crc)
        append32(streamed ? 0 : (record.needsZip64 ? 0xFFFF_FFFF : UInt32(record.compressedSize)))
        append32(streamed ? 0 : (record.needsZip64 ? 0xFFFF_FFFF : UInt32(record.size)))
        append16(UInt16(record.name.count))
        append16(UInt16(extra.count))
        buffer += record.name
        buffer += extra
        offset += Int64(record.name.count + extra.count)
    }

    /// `time` as a DOS time and date in the local time zone, clamped to 1980…2107 as `zip` does.
    static func dosTime(_ time: Int) -> (UInt16, UInt16) {
        var seconds = time_t(time)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return (0, 0x21) }
        let year = Int(parts.tm_year) + 1900
        if year < 1980 { return (0, 0x21) }
        if year > 2107 { return (0xBF7D, 0xFF9F) }
        let dosTime = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let dosDate = UInt16(year - 1980) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (dosTime, dosDate)
    }

    // MARK: - Bytes

    private func append16(_ value: UInt16) { appendLE(&buffer, UInt64(value), 2); offset += 2 }
    private func append32(_ value: UInt32) { appendLE(&buffer, UInt64(value), 4); offset += 4 }
    private func append64(_ value: UInt64) { appendLE(&buffer, value, 8); offset += 8 }

    private func flushIfFull() throws {
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { (bytes) throws in try write(bytes) }
        // `offset` counted these bytes when they were appended.
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if output.write(base, count: bytes.count) < 0 {
            throw ArchiveError.io(path: displayPath, reason: String(cString: strerror(output.failure)))
        }
    }
}

private func appendLE(_ bytes: inout [UInt8], _ value: UInt64, _ width: Int) {
    for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
}
