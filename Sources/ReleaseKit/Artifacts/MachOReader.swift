import ReleaseSupport

/// Reads the architectures and `LC_UUID`s of Mach-O files: thin and fat (`FAT_MAGIC` and `FAT_MAGIC_64`),
/// 32- and 64-bit, either byte order.
///
/// Only the fat header, each slice's `mach_header` and its load commands are read, so a 2 GB dSYM costs a
/// few kilobytes of I/O. Every count, size and offset in the file is checked against the bytes actually
/// read before it is used: a truncated or hostile file gives a ``MachOError``, never a crash.
///
/// Layouts from `<mach-o/loader.h>` and `<mach-o/fat.h>`.
package enum MachOReader {
    /// More architectures than any real fat file has; Java class files share the fat magic and would declare
    /// their version number (45 and up) here.
    static let maxArchitectures: UInt32 = 32
    /// Load commands bigger than this are refused (real ones are a few kilobytes).
    static let maxLoadCommandBytes: UInt32 = 16 << 20
    static let loadCommandUUID: UInt32 = 0x1B

    /// Reads the Mach-O file at `path`.
    /// - Throws: ``MachOError``.
    package static func read(path: String) throws(MachOError) -> MachOFile {
        try read(MachOFileSource(path: path), path: path)
    }

    /// Reads a Mach-O file from bytes in memory; `path` is only used in errors and the result.
    /// - Throws: ``MachOError``.
    package static func read(bytes: [UInt8], path: String) throws(MachOError) -> MachOFile {
        try read(MachOBufferSource(bytes), path: path)
    }

    /// Whether `prefix` (at least the first 4 bytes of a file) starts like a thin or fat Mach-O file.
    package static func hasMachOMagic(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4 else { return false }
        switch bigEndian32(prefix, 0) {
        case 0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE: return true
        case 0xCAFE_BABE, 0xCAFE_BABF:
            // Java class files share 0xCAFEBABE; their "count" is a class-file version (45 and up).
            guard prefix.count >= 8 else { return true }
            let count = bigEndian32(prefix, 4)
            return count >= 1 && count <= maxArchitectures
        default: return false
        }
    }

    /// Reads a Mach-O file from any byte source; reads go forward only.
    /// - Throws: ``MachOError``.
    package static func read(_ source: some MachOByteSource, path: String) throws(MachOError) -> MachOFile {
        let head = try source.read(offset: 0, count: 8)
        guard head.count >= 4 else { throw MachOError.truncated(path: path, what: "the magic number", offset: 0, needed: 4) }
        let magic = bigEndian32(head, 0)
        switch magic {
        case 0xCAFE_BABE, 0xCAFE_BABF:
            return MachOFile(path: path, isFat: true, slices: try readFat(source, head: head, is64: magic == 0xCAFE_BABF, path: path))
        case 0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE:
            return MachOFile(path: path, isFat: false, slices: [try readThin(source, at: 0, limit: source.size, path: path)])
        default:
            throw MachOError.notMachO(path: path, magic: magic)
        }
    }

    // MARK: Fat

    private struct FatArch {
        var cpuType: Int32
        var cpuSubtype: Int32
        var offset: Int64
        var size: Int64
    }

    private static func readFat(_ source: some MachOByteSource, head: [UInt8], is64: Bool, path: String) throws(MachOError) -> [MachOSlice] {
        guard head.count >= 8 else { throw MachOError.truncated(path: path, what: "the fat header", offset: 0, needed: 8) }
        let count = bigEndian32(head, 4)
        guard count >= 1, count <= maxArchitectures else {
            throw MachOError.malformed(path: path, detail: "fat header declares '\(count)' architectures")
        }
        let entrySize = is64 ? 32 : 20
        let tableSize = Int(count) * entrySize
        let table = try source.read(offset: 8, count: tableSize)
        guard table.count == tableSize else {
            throw MachOError.truncated(path: path, what: "the fat architecture table", offset: 8, needed: tableSize)
        }
        var archs: [FatArch] = []
        for index in 0..<Int(count) {
            let base = index * entrySize
            let cpuType = Int32(bitPattern: bigEndian32(table, base))
            let cpuSubtype = Int32(bitPattern: bigEndian32(table, base + 4))
            let offset: UInt64 = is64 ? bigEndian64(table, base + 8) : UInt64(bigEndian32(table, base + 8))
            let size: UInt64 = is64 ? bigEndian64(table, base + 16) : UInt64(bigEndian32(table, base + 12))
            let name = MachOArchitecture.name(cpuType: cpuType, cpuSubtype: cpuSubtype)
            guard offset <= UInt64(Int64.max / 2), size <= UInt64(Int64.max / 2) else {
                throw MachOError.malformed(path: path, detail: "slice '\(name)' has offset '\(offset)' and size '\(size)'")
            }
            guard offset >= UInt64(8 + tableSize) else {
                throw MachOError.malformed(path: path, detail: "slice '\(name)' starts at offset '\(offset)', inside the fat header")
            }
            if let fileSize = source.size, offset + size > UInt64(fileSize) {
                throw MachOError.truncated(path: path, what: "slice '\(name)'", offset: Int64(offset), needed: Int(clamping: size))
            }
            archs.append(FatArch(cpuType: cpuType, cpuSubtype: cpuSubtype, offset: Int64(offset), size: Int64(size)))
        }
        // Read slices in file order, so forward-only sources work; report them in the file's own order.
        var slices: [Int: MachOSlice] = [:]
        for (index, arch) in archs.enumerated().sorted(by: { $0.element.offset < $1.element.offset }) {
            var slice = try readThin(source, at: arch.offset, limit: arch.size, path: path)
            let name = MachOArchitecture.name(cpuType: arch.cpuType, cpuSubtype: arch.cpuSubtype)
            guard slice.cpuType == arch.cpuType else {
                throw MachOError.malformed(path: path, detail: "fat header says '\(name)' at offset \(arch.offset) but the slice is '\(slice.architecture)'")
            }
            slice.offset = arch.offset
            slices[index] = slice
        }
        return (0..<archs.count).compactMap { slices[$0] }
    }

    // MARK: Thin

    private static func readThin(_ source: some MachOByteSource, at offset: Int64, limit: Int64?, path: String) throws(MachOError) -> MachOSlice {
        let magicBytes = try source.read(offset: offset, count: 4)
        guard magicBytes.count == 4 else { throw MachOError.truncated(path: path, what: "the mach header", offset: offset, needed: 4) }
        let magic = bigEndian32(magicBytes, 0)
        let littleEndian: Bool
        let is64: Bool
        switch magic {
        case 0xCEFA_EDFE: littleEndian = true; is64 = false
        case 0xCFFA_EDFE: littleEndian = true; is64 = true
        case 0xFEED_FACE: littleEndian = false; is64 = false
        case 0xFEED_FACF: littleEndian = false; is64 = true
        default: throw MachOError.notMachO(path: path, magic: magic)
        }
        let headerSize = is64 ? 32 : 28
        let rest = try source.read(offset: offset + 4, count: headerSize - 4)
        guard rest.count == headerSize - 4 else {
            throw MachOError.truncated(path: path, what: "the mach header", offset: offset, needed: headerSize)
        }
        let header = magicBytes + rest
        func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            littleEndian ? littleEndian32(bytes, at) : bigEndian32(bytes, at)
        }
        let cpuType = Int32(bitPattern: word(header, 4))
        let cpuSubtype = Int32(bitPattern: word(header, 8))
        let fileType = word(header, 12)
        let commandCount = word(header, 16)
        let commandBytes = word(header, 20)
        let name = MachOArchitecture.name(cpuType: cpuType, cpuSubtype: cpuSubtype)

        guard commandBytes <= maxLoadCommandBytes else {
            throw MachOError.malformed(path: path, detail: "\(name) load commands declare '\(commandBytes)' bytes")
        }
        guard UInt64(commandCount) * 8 <= UInt64(commandBytes) else {
            throw MachOError.malformed(path: path, detail: "\(name) declares '\(commandCount)' load commands in '\(commandBytes)' bytes")
        }
        if let limit, Int64(headerSize) + Int64(commandBytes) > limit {
            throw MachOError.truncated(path: path, what: "\(name) load commands", offset: offset + Int64(headerSize), needed: Int(commandBytes))
        }
        let commands = try source.read(offset: offset + Int64(headerSize), count: Int(commandBytes))
        guard commands.count == Int(commandBytes) else {
            throw MachOError.truncated(path: path, what: "\(name) load commands", offset: offset + Int64(headerSize), needed: Int(commandBytes))
        }

        var uuid: String?
        var position = 0
        for index in 0..<Int(commandCount) {
            guard position + 8 <= commands.count else {
                throw MachOError.malformed(path: path, detail: "\(name) load command \(index) starts past the end of the load commands")
            }
            let command = word(commands, position)
            let size = Int(word(commands, position + 4))
            guard size >= 8 else {
                throw MachOError.malformed(path: path, detail: "\(name) load command \(index) has size '\(size)'")
            }
            guard size <= commands.count - position else {
                throw MachOError.malformed(path: path, detail: "\(name) load command \(index) of size '\(size)' runs past the load commands")
            }
            if command == loadCommandUUID {
                guard size >= 24 else {
                    throw MachOError.malformed(path: path, detail: "\(name) LC_UUID has size '\(size)'")
                }
                if uuid == nil { uuid = formatUUID(commands[(position + 8)..<(position + 24)]) }
            }
            position += size
        }
        return MachOSlice(
            architecture: name, cpuType: cpuType, cpuSubtype: cpuSubtype,
            fileType: MachOArchitecture.fileTypeName(fileType), uuid: uuid, offset: offset, is64Bit: is64)
    }

    // MARK: Bytes (callers check bounds first; array subscripts would trap, never read out of bounds)

    static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
    }

    static func bigEndian64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(bigEndian32(bytes, at)) << 32 | UInt64(bigEndian32(bytes, at + 4))
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`, upper-case, as `llvm-dwarfdump --uuid` prints it.
    static func formatUUID(_ bytes: ArraySlice<UInt8>) -> String {
        let hex = Array(Hex.string(bytes, uppercase: true))
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
