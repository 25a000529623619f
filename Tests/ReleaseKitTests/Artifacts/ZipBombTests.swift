import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseExecution
@testable import ReleaseSteps

/// A zip written byte by byte, so an entry may declare a size its data does not have (the zip bomb that lies).
struct HandMadeZip {
    struct Entry {
        var name: String
        /// Zeros: this many, deflated.
        var zeros: Int
        /// The uncompressed size the headers declare; nil for the true one.
        var declaredSize: Int?
    }

    /// The zip's bytes.
    static func bytes(_ entries: [Entry]) throws -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le(_ value: Int, _ width: Int, into bytes: inout [UInt8]) {
            for index in 0..<width { bytes.append(UInt8((value >> (8 * index)) & 0xFF)) }
        }
        for entry in entries {
            let data = try deflatedZeros(entry.zeros)
            let crc = zerosCRC(entry.zeros)
            let name = Array(entry.name.utf8)
            let size = entry.declaredSize ?? entry.zeros
            let offset = out.count
            le(0x0403_4B50, 4, into: &out); le(20, 2, into: &out); le(0, 2, into: &out); le(8, 2, into: &out)
            le(0, 2, into: &out); le(0x21, 2, into: &out); le(Int(crc), 4, into: &out)
            le(data.count, 4, into: &out); le(size, 4, into: &out); le(name.count, 2, into: &out); le(0, 2, into: &out)
            out += name
            out += data
            le(0x0201_4B50, 4, into: &central); le(3 << 8 | 20, 2, into: &central); le(20, 2, into: &central)
            le(0, 2, into: &central); le(8, 2, into: &central); le(0, 2, into: &central); le(0x21, 2, into: &central)
            le(Int(crc), 4, into: &central); le(data.count, 4, into: &central); le(size, 4, into: &central)
            le(name.count, 2, into: &central); le(0, 2, into: &central); le(0, 2, into: &central); le(0, 2, into: &central)
            le(0, 2, into: &central); le(0o100644 << 16, 4, into: &central); le(offset, 4, into: &central)
            central += name
        }
        let centralOffset = out.count
        out += central
        le(0x0605_4B50, 4, into: &out); le(0, 2, into: &out); le(0, 2, into: &out)
        le(entries.count, 2, into: &out); le(entries.count, 2, into: &out)
        le(central.count, 4, into: &out); le(centralOffset, 4, into: &out); le(0, 2, into: &out)
        return out
    }

    /// Writes the zip to `path` and returns `path`.
    static func write(_ entries: [Entry], to path: String) throws -> String {
        try Data(try bytes(entries)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `count` zeros as one raw deflate stream, compressed a MiB at a time (each MiB of zeros costs about a KiB).
    private static func deflatedZeros(_ count: Int) throws -> [UInt8] {
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        let deflater = try RawDeflater(level: 9)
        var result: [UInt8] = []
        var done = 0
        var piece: [UInt8] = []
        repeat {
            let size = min(chunk.count, count - done)
            let final = done + size == count
            try chunk.withUnsafeBytes { all in
                try deflater.compress(
                    UnsafeRawBufferPointer(rebasing: all[0..<size]),
                    dictionary: done == 0 ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(rebasing: all[0..<RawDeflater.dictionarySize]),
                    final: final, into: &piece)
            }
            result += piece
            done += size
        } while done < count
        return result
    }

    private static func zerosCRC(_ count: Int) -> UInt32 {
        var crc = CRC32()
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        var done = 0
        while done < count {
            let size = min(chunk.count, count - done)
            chunk.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }
            done += size
        }
        return crc.value
    }
}

/// Entries read into memory from an archive are capped, by their declared size and by what they really inflate to.
@Suite struct ZipBombTests {
    static let info = "Payload/Demo.app/Info.plist"
    static let profile = "Payload/Demo.app/embedded.mobileprovision"

    @Test func anInfoPlistDeclaringMoreThanTheLimitIsRefusedBeforeInflating() throws {
        let folder = try TemporaryFolder("zipbomb")
        let path = try HandMadeZip.write([.init(name: Self.info, zeros: 8 << 20)], to: folder("big.ipa"))
        #expect(throws: ArchiveError.entryTooLarge(archive: path, entry: Self.info, declaredSize: 8 << 20, limit: 4 << 20)) {
            try IPAContents.read(path)
        }
        #expect(
            ArchiveError.entryTooLarge(archive: path, entry: Self.info, declaredSize: 8 << 20, limit: 4 << 20).description
                == "entry '\(Self.info)' of '\(path)' declares 8388608 bytes (8.0 MiB), more than the 4.0 MiB read into memory")
    }

    /// The declared size says 100 bytes; the deflate stream holds 64 MiB.
    @Test func aSizeThatLiesStopsInflatingAtTheLimit() throws {
        let folder = try TemporaryFolder("zipbomb")
        for name in [Self.info, Self.profile] {
            let path = try HandMadeZip.write([.init(name: name, zeros: 64 << 20, declaredSize: 100)], to: folder("liar.ipa"))
            do {
                _ = try IPAContents.read(path)
                Issue.record("a 64 MiB \(name) must be refused")
            } catch let error as ArchiveError {
                #expect(error == .entryTooLarge(archive: path, entry: name, declaredSize: 100, limit: 4 << 20))
                #expect(error.description == "entry '\(name)' of '\(path)' declares 100 bytes but inflates to more than the 4.0 MiB read into memory")
            }
        }
    }

    @Test func entriesUnderTheLimitAreReadWhole() throws {
        let folder = try TemporaryFolder("zipbomb")
        let path = try HandMadeZip.write(
            [
                .init(name: Self.info, zeros: 3 << 20), .init(name: Self.profile, zeros: 1000),
                .init(name: "Payload/Demo.app/Demo", zeros: 64 << 20),
            ], to: folder("fine.ipa"))
        let contents = try IPAContents.read(path)
        #expect(contents.infoPlist?.count == 3 << 20)
        #expect(contents.profile?.count == 1000)
        #expect(contents.app == "Payload/Demo.app")
    }

    @Test func gateIPANamesTheEntryAndItsDeclaredSize() async throws {
        let folder = try TemporaryFolder("zipbomb")
        let path = try HandMadeZip.write([.init(name: Self.info, zeros: 64 << 20, declaredSize: 512)], to: folder("bomb.ipa"))
        let result = try await GatePipelines.runGate("gate.ipa", ["ipa": path])
        #expect(result.statuses == ["gate=rejected"])
        #expect(
            result.step("gate")?.message
                == "'\(path)' is not a readable ipa: entry '\(Self.info)' of '\(path)' declares 512 bytes but inflates to more than the 4.0 MiB read into memory")
    }

    /// `appstore.upload` reads the bundle id, version and build from the same Info.plist, in preflight and before sending.
    @Test func appstoreUploadNamesTheEntryAndItsDeclaredSize() async throws {
        let folder = try TemporaryFolder("zipbomb")
        let path = try HandMadeZip.write([.init(name: Self.info, zeros: 64 << 20, declaredSize: 512)], to: folder("bomb.ipa"))
        let step = try AppStoreConnectStepsTests.upload { $0.ipa = path }
        await #expect(
            throws: StepError.failed(
                "'\(path)' is not a readable ipa: entry '\(Self.info)' of '\(path)' declares 512 bytes but inflates to more than the 4.0 MiB read into memory"
            )
        ) {
            try await step.identity(ofIPA: path)
        }
    }

    /// `dsym` and the dSYM gates read every Info.plist of a zipped archive the same way.
    @Test func aZippedArchivesInfoPlistsAreCappedToo() throws {
        let folder = try TemporaryFolder("zipbomb")
        let name = "Demo.xcarchive/Products/Applications/Demo.app/Info.plist"
        let path = try HandMadeZip.write([.init(name: name, zeros: 64 << 20, declaredSize: 10)], to: folder("bomb.xcarchive.zip"))
        #expect(throws: ArchiveError.entryTooLarge(archive: path, entry: name, declaredSize: 10, limit: 4 << 20)) {
            try ZipBundleTree(archivePath: path)
        }
    }
}
