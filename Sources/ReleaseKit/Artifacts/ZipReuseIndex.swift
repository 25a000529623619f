import Foundation

/// The compressed entries of existing zips, found by content, so a zip of a tree that contains the same files
/// (the archive zip that holds the dSYM zipped a moment ago) copies their deflate data instead of compressing
/// them again.
///
/// An entry is a candidate for a file when their sizes and last path components are equal; it is used only
/// when the file's CRC-32, computed from the file now, equals the entry's. Reading a file for its CRC costs a
/// small fraction of deflating it. Only deflated and stored entries are reused; the copy is byte for byte, so
/// the new zip is exactly as valid as the old one (and readers check the CRC again).
///
/// Entry locations come from the central directory (APPNOTE.TXT §4.3.12, with the Zip64 extra field and end
/// records of §4.5.3 and §4.3.14–15), parsed here because libarchive does not expose compressed bytes.
struct ZipReuseIndex: Sendable {
    /// Where an entry's compressed bytes are.
    struct Location: Sendable, Equatable {
        var zip: String
        var localHeaderOffset: Int64
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int64
        var size: Int64
    }

    private struct Key: Hashable {
        var size: Int64
        var lastComponent: String
    }

    private var entries: [Key: [Location]] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Indexes the deflated and stored file entries of `zips`; a zip that cannot be read is skipped (reuse is
    /// an optimisation, never a reason to fail).
    init(zips: [String]) {
        for zip in zips {
            guard let locations = try? Self.centralDirectory(of: zip) else { continue }
            for (name, location) in locations where location.size > 0 && !name.hasSuffix("/") {
                let last = name.split(separator: "/").last.map(String.init) ?? name
                entries[Key(size: location.size, lastComponent: last), default: []].append(location)
            }
        }
    }

    /// Entries that may hold the same bytes as a file named `lastComponent` of `size` bytes.
    func candidates(size: Int64, lastComponent: String) -> [Location] {
        entries[Key(size: size, lastComponent: lastComponent)] ?? []
    }

    /// Where the compressed bytes of the entry at `location` start, after its local header.
    static func dataOffset(of location: Location, in file: ReadOnlyFile) throws -> Int64 {
        let header = try file.read(at: location.localHeaderOffset, count: 30)
        guard header.u32(0) == 0x0403_4B50 else { throw ArchiveError.io(path: file.path, reason: "no local header at \(location.localHeaderOffset)") }
        return location.localHeaderOffset + 30 + Int64(header.u16(26)) + Int64(header.u16(28))
    }

    /// Every entry's name and location, from the central directory of `zip`.
    static func centralDirectory(of zip: String) throws -> [(String, Location)] {
        let file = try ReadOnlyFile(path: zip)
        let size = file.size
        let tailLength = Int(min(size, 65_557))
        let tail = try file.read(at: size - Int64(tailLength), count: tailLength)
        guard let end = (0...(max(0, tail.count - 22))).reversed().first(where: { tail.u32($0) == 0x0605_4B50 }) else {
            throw ArchiveError.io(path: zip, reason: "not a zip: no end of central directory")
        }
        var count = Int64(tail.u16(end + 10))
        var directorySize = Int64(tail.u32(end + 12))
        var directoryOffset = Int64(tail.u32(end + 16))
        if end >= 20, tail.u32(end - 20) == 0x0706_4B50 {
            let zip64End = try file.read(at: Int64(tail.u64(end - 20 + 8)), count: 56)
            guard zip64End.u32(0) == 0x0606_4B50 else { throw ArchiveError.io(path: zip, reason: "bad zip64 end record") }
            count = Int64(zip64End.u64(32))
            directorySize = Int64(zip64End.u64(40))
            directoryOffset = Int64(zip64End.u64(48))
        }
        guard directoryOffset + directorySize <= size, directorySize < 1 << 30 else {
            throw ArchiveError.io(path: zip, reason: "central directory out of bounds")
        }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        var result: [(String, Location)] = []
        var index = 0
        for _ in 0..<count {
            guard index + 46 <= directory.count, directory.u32(index) == 0x0201_4B50 else { break }
            let method = directory.u16(index + 10)
            let crc = directory.u32(index + 16)
            var compressed = Int64(directory.u32(index + 20))
            var uncompressed = Int64(directory.u32(index + 24))
            let nameLength = Int(directory.u16(index + 28))
            let extraLength = Int(directory.u16(index + 30))
            let commentLength = Int(directory.u16(index + 32))
            var offset = Int64(directory.u32(index + 42))
            guard index + 46 + nameLength + extraLength <= directory.count else { break }
            let name = String(decoding: directory[(index + 46)..<(index + 46 + nameLength)], as: UTF8.self)
            var extra = index + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let tag = directory.u16(extra)
                let length = Int(directory.u16(extra + 2))
                if tag == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { uncompressed = Int64(directory.u64(field)); field += 8 }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { compressed = Int64(directory.u64(field)); field += 8 }
                    if offset == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { offset = Int64(directory.u64(field)) }
                }
                extra += 4 + length
            }
            if method == 0 || method == 8 {
                result.append((name, Location(zip: zip, localHeaderOffset: offset, method: method, crc: crc, compressedSize: compressed, size: uncompressed)))
            }
            index += 46 + nameLength + extraLength + commentLength
        }
        return result
    }
}

/// A file opened read-only for `pread`, closed in `deinit`.
final class ReadOnlyFile {
    let path: String
    let descriptor: Int32
    let size: Int64

    init(path: String) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.io(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        fstat(descriptor, &info)
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Exactly `count` bytes from `offset`, or throws.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { buffer in try read(into: buffer, at: offset) }
        return bytes
    }

    /// Fills `buffer` from `offset`, or throws.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ArchiveError) {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + Int64(done)))
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.io(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { throw ArchiveError.io(path: path, reason: "unexpected end of file") }
            done += count
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func u16(_ index: Int) -> UInt16 { UInt16(self[index]) | UInt16(self[index + 1]) << 8 }
    fileprivate func u32(_ index: Int) -> UInt32 { UInt32(u16(index)) | UInt32(u16(index + 2)) << 16 }
    fileprivate func u64(_ index: Int) -> UInt64 { UInt64(u32(index)) | UInt64(u32(index + 4)) << 32 }
}
