import Foundation
import Testing

@testable import ReleaseArtifacts

/// Builds Mach-O headers byte by byte, little-endian unless asked, for the edge cases no toolchain makes.
private struct MachOBuilder {
    var cpuType: UInt32
    var cpuSubtype: UInt32
    var is64 = true
    var bigEndian = false
    var fileType: UInt32 = 2
    /// (cmd, payload) pairs; cmdsize is 8 + payload unless overridden.
    var commands: [(cmd: UInt32, payload: [UInt8], size: UInt32?)] = []
    var commandCountOverride: UInt32?
    var trailing = 0

    func word(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
        return bigEndian ? bytes.reversed() : bytes
    }

    var bytes: [UInt8] {
        var body: [UInt8] = []
        for command in commands {
            body += word(command.cmd) + word(command.size ?? UInt32(8 + command.payload.count)) + command.payload
        }
        let magic: UInt32 = is64 ? 0xFEED_FACF : 0xFEED_FACE
        var header = word(magic) + word(cpuType) + word(cpuSubtype) + word(fileType)
        header += word(commandCountOverride ?? UInt32(commands.count)) + word(UInt32(body.count)) + word(0)
        if is64 { header += word(0) }
        return header + body + [UInt8](repeating: 0, count: trailing)
    }

    static func uuidCommand(_ uuid: [UInt8]) -> (cmd: UInt32, payload: [UInt8], size: UInt32?) { (0x1B, uuid, nil) }
    static let segment: (cmd: UInt32, payload: [UInt8], size: UInt32?) = (0x19, [UInt8](repeating: 0, count: 64), nil)
}

private let uuidA: [UInt8] = [0x4C, 0x4C, 0x44, 0x35, 0x55, 0x55, 0x31, 0x44, 0xA1, 0x9A, 0x74, 0xFD, 0xA8, 0x44, 0xFF, 0x6F]
private let uuidB: [UInt8] = Array(0..<16)
private let uuidAText = "4C4C4435-5555-3144-A19A-74FDA844FF6F"
private let uuidBText = "00010203-0405-0607-0809-0A0B0C0D0E0F"

/// A fat file holding `slices`, each aligned to 4096 (big-endian header, as lipo writes it).
private func fat(_ slices: [(cpuType: UInt32, cpuSubtype: UInt32, bytes: [UInt8])], is64: Bool = false) -> [UInt8] {
    func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    func be64(_ value: UInt64) -> [UInt8] { be32(UInt32(value >> 32)) + be32(UInt32(value & 0xFFFF_FFFF)) }
    var header = be32(is64 ? 0xCAFE_BABF : 0xCAFE_BABE) + be32(UInt32(slices.count))
    var offset = 4096
    var body: [UInt8] = []
    for slice in slices {
        header += be32(slice.cpuType) + be32(slice.cpuSubtype)
        header += is64 ? be64(UInt64(offset)) + be64(UInt64(slice.bytes.count)) : be32(UInt32(offset)) + be32(UInt32(slice.bytes.count))
        header += be32(12) + (is64 ? be32(0) : [])
        body += [UInt8](repeating: 0, count: offset - 4096 - body.count) + slice.bytes
        offset = 4096 + ((body.count + 4095) / 4096) * 4096
    }
    return header + [UInt8](repeating: 0, count: 4096 - header.count) + body
}

private let arm64Slice = MachOBuilder(cpuType: 0x0100_000C, cpuSubtype: 0, commands: [MachOBuilder.segment, MachOBuilder.uuidCommand(uuidA)])
private let x86Slice = MachOBuilder(cpuType: 0x0100_0007, cpuSubtype: 3, commands: [MachOBuilder.uuidCommand(uuidB)])

@Suite struct MachOReaderTests {
    @Test func thin64BitWithUUID() throws {
        let file = try MachOReader.read(bytes: arm64Slice.bytes, path: "App")
        #expect(
            file
                == MachOFile(
                    path: "App", isFat: false,
                    slices: [
                        MachOSlice(architecture: "arm64", cpuType: 0x0100_000C, cpuSubtype: 0, fileType: "execute", uuid: uuidAText, offset: 0, is64Bit: true)
                    ]))
    }

    @Test(arguments: [
        (UInt32(12), UInt32(9), "armv7"), (12, 11, "armv7s"), (12, 12, "armv7k"), (7, 3, "i386"), (12, 6, "armv6"),
    ])
    func thin32Bit(cpuType: UInt32, cpuSubtype: UInt32, name: String) throws {
        let builder = MachOBuilder(cpuType: cpuType, cpuSubtype: cpuSubtype, is64: false, fileType: 6, commands: [MachOBuilder.uuidCommand(uuidB)])
        let slice = try #require(try MachOReader.read(bytes: builder.bytes, path: "lib").slices.first)
        #expect(slice.architecture == name)
        #expect(slice.uuid == uuidBText)
        #expect(slice.fileType == "dylib")
        #expect(!slice.is64Bit)
    }

    @Test func bigEndianThinFile() throws {
        var builder = MachOBuilder(cpuType: 18, cpuSubtype: 0, is64: false, commands: [MachOBuilder.uuidCommand(uuidB)])
        builder.bigEndian = true
        let slice = try #require(try MachOReader.read(bytes: builder.bytes, path: "ppc").slices.first)
        #expect(slice.architecture == "ppc")
        #expect(slice.uuid == uuidBText)
    }

    @Test func fatFileWithTwoSlices() throws {
        let bytes = fat([(0x0100_0007, 3, x86Slice.bytes), (0x0100_000C, 0, arm64Slice.bytes)])
        let file = try MachOReader.read(bytes: bytes, path: "Fat")
        #expect(file.isFat)
        #expect(file.slices.map(\.architecture) == ["x86_64", "arm64"])
        #expect(file.slices.map(\.uuid) == [uuidBText, uuidAText])
        #expect(file.slices.map(\.offset) == [4096, 8192])
    }

    @Test func fat64WithArm64eCapabilityBits() throws {
        let arm64e = MachOBuilder(cpuType: 0x0100_000C, cpuSubtype: 0x8000_0002, commands: [MachOBuilder.uuidCommand(uuidB)])
        let bytes = fat([(0x0100_000C, 0, arm64Slice.bytes), (0x0100_000C, 0x8000_0002, arm64e.bytes)], is64: true)
        let file = try MachOReader.read(bytes: bytes, path: "Fat64")
        #expect(file.slices.map(\.architecture) == ["arm64", "arm64e"])
        #expect(file.slices.map(\.uuid) == [uuidAText, uuidBText])
    }

    @Test func fileWithoutUUID() throws {
        let builder = MachOBuilder(cpuType: 0x0100_000C, cpuSubtype: 0, commands: [MachOBuilder.segment])
        #expect(try MachOReader.read(bytes: builder.bytes, path: "NoUUID").slices.map(\.uuid) == [nil])
    }

    @Test func malformedFilesGiveClearErrors() throws {
        var zeroSize = arm64Slice
        zeroSize.commands[1].size = 0
        #expect(throws: MachOError.malformed(path: "f", detail: "arm64 load command 1 has size '0'")) {
            try MachOReader.read(bytes: zeroSize.bytes, path: "f")
        }
        var tooLong = arm64Slice
        tooLong.commands[1].size = 4000
        #expect(throws: MachOError.malformed(path: "f", detail: "arm64 load command 1 of size '4000' runs past the load commands")) {
            try MachOReader.read(bytes: tooLong.bytes, path: "f")
        }
        var tooMany = arm64Slice
        tooMany.commandCountOverride = 1000
        #expect(throws: MachOError.malformed(path: "f", detail: "arm64 declares '1000' load commands in '96' bytes")) {
            try MachOReader.read(bytes: tooMany.bytes, path: "f")
        }
        var shortUUID = arm64Slice
        shortUUID.commands[1] = (0x1B, Array(uuidA[0..<8]), nil)
        #expect(throws: MachOError.malformed(path: "f", detail: "arm64 LC_UUID has size '16'")) {
            try MachOReader.read(bytes: shortUUID.bytes, path: "f")
        }
        #expect(throws: MachOError.notMachO(path: "f", magic: 0x7F45_4C46)) {
            try MachOReader.read(bytes: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0], path: "f")
        }
        #expect("\(MachOError.notMachO(path: "f", magic: 0x7F45_4C46))" == "'f' is not a mach-o file (magic '0x7f454c46')")
        // A Java class file shares the fat magic; its "architecture count" is the class-file version.
        #expect(throws: MachOError.malformed(path: "Main.class", detail: "fat header declares '52' architectures")) {
            try MachOReader.read(bytes: [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52], path: "Main.class")
        }
    }

    @Test func truncatedFilesGiveClearErrors() throws {
        let bytes = arm64Slice.bytes
        #expect(throws: MachOError.truncated(path: "t", what: "the mach header", offset: 0, needed: 32)) {
            try MachOReader.read(bytes: Array(bytes[0..<20]), path: "t")
        }
        #expect(throws: MachOError.truncated(path: "t", what: "arm64 load commands", offset: 32, needed: 96)) {
            try MachOReader.read(bytes: Array(bytes[0..<100]), path: "t")
        }
        #expect(
            "\(MachOError.truncated(path: "t", what: "arm64 load commands", offset: 32, needed: 96))"
                == "'t' is truncated: arm64 load commands needs 96 bytes at offset 32")
        let fatBytes = fat([(0x0100_0007, 3, x86Slice.bytes), (0x0100_000C, 0, arm64Slice.bytes)])
        #expect(throws: MachOError.truncated(path: "t", what: "slice 'arm64'", offset: 8192, needed: arm64Slice.bytes.count)) {
            try MachOReader.read(bytes: Array(fatBytes[0..<8200]), path: "t")
        }
        #expect(throws: MachOError.truncated(path: "t", what: "the magic number", offset: 0, needed: 4)) {
            try MachOReader.read(bytes: [0xCF, 0xFA], path: "t")
        }
    }

    @Test func everyTruncationAndCorruptionFailsCleanly() throws {
        let bytes = fat([(0x0100_0007, 3, x86Slice.bytes), (0x0100_000C, 0, arm64Slice.bytes)], is64: true)
        let whole = try MachOReader.read(bytes: bytes, path: "f")
        var failures = 0
        for length in 0..<bytes.count {
            do {
                _ = try MachOReader.read(bytes: Array(bytes[0..<length]), path: "f")
            } catch {
                failures += 1
            }
        }
        #expect(failures == bytes.count, "every prefix is truncated")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var corrupt = bytes
            for _ in 0..<4 {
                let interesting = [4, 7, 11, 12, 19, 23, 27, 31, 35, 4096 + 16, 4096 + 20, 8192 + 16, 8192 + 20, 8192 + 36, 8192 + 108]
                let index = Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : Int.random(in: 0..<corrupt.count, using: &generator)
                corrupt[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? MachOReader.read(bytes: corrupt, path: "f")
        }
        #expect(whole.slices.count == 2)
    }

    @Test func aHugeFileCostsOnlyItsHeaders() throws {
        let folder = try TemporaryFolder()
        let path = folder("Huge.dSYM")
        // A 2 GiB sparse fat file whose second slice starts at 1.5 GiB.
        let first = MachOBuilder(cpuType: 0x0100_0007, cpuSubtype: 3, fileType: 0xA, commands: [MachOBuilder.segment, MachOBuilder.uuidCommand(uuidB)])
        let second = MachOBuilder(cpuType: 0x0100_000C, cpuSubtype: 0, fileType: 0xA, commands: [MachOBuilder.segment, MachOBuilder.uuidCommand(uuidA)])
        let size: UInt64 = 2 << 30
        let secondOffset: UInt64 = 3 << 29
        func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        var header = be32(0xCAFE_BABE) + be32(2)
        header += be32(0x0100_0007) + be32(3) + be32(4096) + be32(UInt32(secondOffset - 4096)) + be32(12)
        header += be32(0x0100_000C) + be32(0) + be32(UInt32(secondOffset)) + be32(UInt32(size - secondOffset)) + be32(12)
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        #expect(descriptor >= 0)
        ftruncate(descriptor, off_t(size))
        _ = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = first.bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 4096) }
        _ = second.bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(secondOffset)) }
        close(descriptor)

        let source = try MachOFileSource(path: path)
        let file = try MachOReader.read(source, path: path)
        #expect(file.slices.map(\.uuid) == [uuidBText, uuidAText])
        #expect(file.slices.map(\.fileType) == ["dsym", "dsym"])
        #expect(source.bytesRead <= 64 * 1024)
        #expect(source.bytesRead < 1024)
    }

    @Test func magicDetection() {
        #expect(MachOReader.hasMachOMagic(arm64Slice.bytes))
        #expect(MachOReader.hasMachOMagic([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2]))
        #expect(!MachOReader.hasMachOMagic([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52]))
        #expect(!MachOReader.hasMachOMagic(Array("#!/bin/sh".utf8)))
    }

    @Test func unreadablePathIsAClearError() {
        #expect(throws: MachOError.unreadable(path: "/no/such/binary", reason: "No such file or directory")) {
            try MachOReader.read(path: "/no/such/binary")
        }
    }
}
