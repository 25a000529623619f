import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseSupport

/// `count` bytes that deflate to about 40 %: noise every third byte, a short cycle otherwise.
private func compressible(_ count: Int, seed: UInt32) -> Data {
    var bytes = [UInt8](repeating: 0, count: count)
    var state = seed
    for index in bytes.indices {
        state = state &* 1_103_515_245 &+ 12345
        bytes[index] = index % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(index % 7)
    }
    return Data(bytes)
}

/// Every file entry's data, read back through libarchive (which checks each CRC-32 and size).
private func contents(of zip: String) throws -> [String: Data] {
    let reader = try ZipReader(path: zip)
    var result: [String: Data] = [:]
    while let entry = try reader.next() {
        guard entry.kind == .file else { continue }
        var data = Data()
        try reader.readData { data.append(contentsOf: $0) }
        result[entry.path] = data
    }
    return result
}

/// The tests are async and use the async writer (its own thread): a long synchronous write would hold one of
/// the few cooperative threads and starve timing-sensitive tests running alongside.
@Suite(.serialized) struct ParallelZipWriterTests {
    /// A file of several chunks (split across workers) plus a one-chunk file and an empty one.
    private func makeBigTree(in folder: TemporaryFolder) throws -> String {
        let root = folder("Big.dSYM")
        let dwarf = root + "/Contents/Resources/DWARF"
        try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
        // 2.3 chunks: two full chunks and a partial one, with data that crosses every chunk boundary. Kept small:
        // the suite runs beside timing-sensitive tests on few cores.
        try compressible(ZipWriter.chunkSize * 2 + 333_333, seed: 7).write(to: URL(fileURLWithPath: dwarf + "/Big"))
        try compressible(1000, seed: 8).write(to: URL(fileURLWithPath: root + "/Contents/Info.plist"))
        try writeFile(root + "/Contents/empty", "")
        return root
    }

    @Test func aFileBiggerThanAChunkIsSplitAcrossWorkersAndReadsBackWhole() async throws {
        let folder = try TemporaryFolder()
        let root = try makeBigTree(in: folder)
        let zip = try await ZipWriter(options: ZipOptions(workers: 3)).write(sources: [root], to: folder("Big.zip"))
        let data = try contents(of: zip.path)
        #expect(data["Big.dSYM/Contents/Resources/DWARF/Big"] == (try Data(contentsOf: URL(fileURLWithPath: root + "/Contents/Resources/DWARF/Big"))))
        #expect(data["Big.dSYM/Contents/Info.plist"]?.count == 1000)
        #expect(data["Big.dSYM/Contents/empty"] == Data())
        #expect(zip.size < Int64(ZipWriter.chunkSize * 2 + 333_333) / 2, "chunks are deflated, not stored")
        if commandExists("unzip") {
            let test = try runCommand(["unzip", "-tq", zip.path])
            #expect(test.output.contains("No errors detected"), "\(test.output) \(test.error)")
        }
    }

    @Test(arguments: [0, 6, 9])
    func deterministicBytesDoNotDependOnTheNumberOfWorkers(level: Int) async throws {
        let folder = try TemporaryFolder()
        let root = try makeBigTree(in: folder)
        for index in 0..<40 { try writeFile(root + "/Contents/Resources/small\(index).txt", String(repeating: "line \(index)\n", count: index * 50)) }
        var digests: Set<String> = []
        for (run, workers) in [1, 2, 3].enumerated() {
            let zip = try await ZipWriter(options: ZipOptions(level: level, deterministic: true, workers: workers)).write(sources: [root], to: folder("out\(run).zip"))
            digests.insert(zip.sha256)
            #expect(zip.sha256 == FileDigest.sha256(of: try Data(contentsOf: URL(fileURLWithPath: zip.path))))
        }
        #expect(digests.count == 1)
    }

    @Test func chunkedDeflateIsWithinAFractionOfAPercentOfOneStream() async throws {
        // The pigz-style chunks (primed with the previous 32 KiB, sync-flushed) cost a few bytes per chunk.
        let folder = try TemporaryFolder()
        let root = try makeBigTree(in: folder)
        let chunked = try await ZipWriter(options: ZipOptions(level: 6, deterministic: true)).write(sources: [root], to: folder("chunked.zip"))
        let original = try Data(contentsOf: URL(fileURLWithPath: root + "/Contents/Resources/DWARF/Big"))
        var single: [UInt8] = []
        try original.withUnsafeBytes { try RawDeflater(level: 6).compress($0, dictionary: UnsafeRawBufferPointer(start: nil, count: 0), final: true, into: &single) }
        let entries = try ZipReuseIndex.centralDirectory(of: chunked.path)
        let big = try #require(entries.first { $0.0.hasSuffix("DWARF/Big") }?.1)
        #expect(Double(big.compressedSize) <= Double(single.count) * 1.001, "\(big.compressedSize) vs \(single.count)")
    }

    @Test func manySmallFilesKeepTheirOrderAndBytes() async throws {
        let folder = try TemporaryFolder()
        let root = folder("Many")
        for index in 0..<600 { try writeFile(root + "/g\(index / 100)/f\(index).strings", "\"key\(index)\" = \"value \(index)\";\n") }
        let zip = try await ZipWriter(options: ZipOptions(workers: 2)).write(sources: [root], to: folder("many.zip"))
        #expect(zip.entries == 1 + 6 + 600)
        let entries = try ZipReader.entries(at: zip.path)
        #expect(entries.map(\.path) == entries.map(\.path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let data = try contents(of: zip.path)
        #expect(data.count == 600)
        #expect(data["Many/g4/f477.strings"] == Data("\"key477\" = \"value 477\";\n".utf8))
    }

    @Test func anIncompressibleOneChunkFileIsStored() async throws {
        let folder = try TemporaryFolder()
        var noise = [UInt8](repeating: 0, count: 50_000)
        var state: UInt64 = 99
        for index in noise.indices { state = state &* 6_364_136_223_846_793_005 &+ 1; noise[index] = UInt8(truncatingIfNeeded: state >> 33) }
        try FileManager.default.createDirectory(atPath: folder("tree"), withIntermediateDirectories: true)
        try Data(noise).write(to: URL(fileURLWithPath: folder("tree/noise.bin")))
        let zip = try await ZipWriter(options: ZipOptions()).write(sources: [folder("tree")], to: folder("tree.zip"))
        let entry = try #require(try ZipReuseIndex.centralDirectory(of: zip.path).first { $0.0 == "tree/noise.bin" }?.1)
        #expect(entry.method == 0)
        #expect(entry.compressedSize == 50_000)
        #expect(try contents(of: zip.path)["tree/noise.bin"] == Data(noise))
    }

    @Test func reuseCopiesTheDsymZipsEntriesIntoTheArchiveZip() async throws {
        let folder = try TemporaryFolder()
        let dsym = try makeBigTree(in: folder)
        // The dSYM zip at level 9; the archive (holding a copy of the same dSYM, and one changed file of the
        // same size and name) at level 1: reused entries keep their level-9 bytes, others are compressed anew.
        let dsymZip = try await ZipWriter(options: ZipOptions(level: 9)).write(sources: [dsym], to: folder("Big.dSYM.zip"))
        let archive = folder("App.xcarchive")
        try FileManager.default.createDirectory(atPath: archive + "/dSYMs", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dsym, toPath: archive + "/dSYMs/Big.dSYM")
        try FileManager.default.createDirectory(atPath: archive + "/Other/Contents", withIntermediateDirectories: true)
        try compressible(1000, seed: 9).write(to: URL(fileURLWithPath: archive + "/Other/Contents/Info.plist"))
        let options = try ZipOptions(level: 1, reuse: [dsymZip.path, folder("missing.zip")])
        let archiveZip = try await ZipWriter(options: options).write(sources: [archive], to: folder("App.xcarchive.zip"))

        let before = Dictionary(uniqueKeysWithValues: try ZipReuseIndex.centralDirectory(of: dsymZip.path).map { ($0.0, $0.1) })
        let after = Dictionary(uniqueKeysWithValues: try ZipReuseIndex.centralDirectory(of: archiveZip.path).map { ($0.0, $0.1) })
        let reused = try #require(after["App.xcarchive/dSYMs/Big.dSYM/Contents/Resources/DWARF/Big"])
        #expect(reused.compressedSize == before["Big.dSYM/Contents/Resources/DWARF/Big"]?.compressedSize)
        #expect(reused.crc == before["Big.dSYM/Contents/Resources/DWARF/Big"]?.crc)
        let level1 = try await ZipWriter(options: ZipOptions(level: 1)).write(sources: [archive], to: folder("plain.zip"))
        let plain = Dictionary(uniqueKeysWithValues: try ZipReuseIndex.centralDirectory(of: level1.path).map { ($0.0, $0.1) })
        #expect(plain["App.xcarchive/dSYMs/Big.dSYM/Contents/Resources/DWARF/Big"]?.compressedSize != reused.compressedSize)
        // Same name and size, other bytes: compressed anew, and reads back as the new bytes.
        #expect(after["App.xcarchive/Other/Contents/Info.plist"]?.crc != before["Big.dSYM/Contents/Info.plist"]?.crc)
        let data = try contents(of: archiveZip.path)
        #expect(data["App.xcarchive/Other/Contents/Info.plist"] == compressible(1000, seed: 9))
        #expect(data["App.xcarchive/dSYMs/Big.dSYM/Contents/Resources/DWARF/Big"] == (try Data(contentsOf: URL(fileURLWithPath: dsym + "/Contents/Resources/DWARF/Big"))))
        if commandExists("unzip") {
            let test = try runCommand(["unzip", "-tq", archiveZip.path])
            #expect(test.output.contains("No errors detected"), "\(test.output) \(test.error)")
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["RELEASE_SLOW_TESTS"] == "1", "66,000 files take ~45 s in a debug build; set RELEASE_SLOW_TESTS=1"))
    func moreThan65535EntriesGetZip64EndRecords() async throws {
        let folder = try TemporaryFolder()
        let root = folder("Many")
        for group in 0..<66 {
            mkdir(root, 0o755)
            mkdir(root + "/g\(group)", 0o755)
            for index in 0..<1000 { close(open(root + "/g\(group)/\(index)", O_CREAT | O_WRONLY, 0o644)) }
        }
        try writeFile(root + "/z.txt", "last")
        let zip = try await ZipWriter(options: ZipOptions(deterministic: true)).write(sources: [root], to: folder("many.zip"))
        #expect(zip.entries == 1 + 66 + 66_000 + 1)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip.path)))
        // Zip64 end of central directory record, its locator, then the classic record saying "see Zip64".
        let end = bytes.count - 22
        #expect(Array(bytes[end..<(end + 4)]) == [0x50, 0x4B, 0x05, 0x06])
        #expect(Array(bytes[(end + 8)..<(end + 12)]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes[(end - 20)..<(end - 16)]) == [0x50, 0x4B, 0x06, 0x07])
        #expect(Array(bytes[(end - 76)..<(end - 72)]) == [0x50, 0x4B, 0x06, 0x06])
        let entries = try ZipReader.entries(at: zip.path)
        #expect(entries.count == zip.entries)
        #expect(entries.last?.path == "Many/z.txt")
        #expect(try contents(of: zip.path)["Many/z.txt"] == Data("last".utf8))
        if commandExists("unzip") {
            let test = try runCommand(["unzip", "-tq", zip.path])
            #expect(test.output.contains("No errors detected"), "\(test.output) \(test.error)")
        }
    }
}
