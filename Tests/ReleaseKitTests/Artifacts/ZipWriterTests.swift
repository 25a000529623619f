import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseSteps
@testable import ReleaseSupport

/// What a tree looks like, entry by entry, as `lstat` sees it: compared between the source and its unzipped copy.
private func snapshot(_ root: String) throws -> [String: String] {
    var result: [String: String] = [:]
    func visit(_ path: String, _ name: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw StepError.failed("lstat \(path)") }
        let permissions = String(info.st_mode & 0o7777, radix: 8)
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            result[name] = "dir \(permissions)"
            for child in try FileManager.default.contentsOfDirectory(atPath: path) { try visit(path + "/" + child, name + "/" + child) }
        case S_IFLNK:
            result[name] = "link -> \(try FileManager.default.destinationOfSymbolicLink(atPath: path))"
        default:
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            result[name] = "file \(permissions) \(data.count) \(FileDigest.sha256(of: data))"
        }
    }
    try visit(root, (root as NSString).lastPathComponent)
    return result
}

/// A tree with what a dSYM-heavy archive has: nested folders, modes, empty files and folders, links inside,
/// outside, absolute and dangling, and a file bigger than one read chunk.
private func makeTree(in folder: TemporaryFolder) throws -> String {
    let root = folder("App.xcarchive")
    try writeFile(root + "/Info.plist", "<plist/>\n")
    try writeFile(root + "/Products/Applications/App.app/App", String(repeating: "binary\u{1}", count: 1000), mode: 0o755)
    try writeFile(root + "/Products/Applications/App.app/secret.txt", "private\n", mode: 0o600)
    try writeFile(root + "/empty.txt", "")
    try FileManager.default.createDirectory(atPath: root + "/Empty Folder", withIntermediateDirectories: true)
    try writeFile(root + "/Frameworks/Kit.framework/Versions/A/Kit", "kit code", mode: 0o755)
    try FileManager.default.createSymbolicLink(atPath: root + "/Frameworks/Kit.framework/Versions/Current", withDestinationPath: "A")
    try FileManager.default.createSymbolicLink(atPath: root + "/Frameworks/Kit.framework/Kit", withDestinationPath: "Versions/Current/Kit")
    try FileManager.default.createSymbolicLink(atPath: root + "/outside", withDestinationPath: "../../etc/passwd")
    try FileManager.default.createSymbolicLink(atPath: root + "/absolute", withDestinationPath: "/etc/hostname")
    try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: "no/such/file")
    var big = [UInt8](repeating: 0, count: 3 << 20)
    var state: UInt32 = 12345
    for index in big.indices {
        state = state &* 1_103_515_245 &+ 12345
        big[index] = index % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(index % 7)
    }
    let dwarf = root + "/dSYMs/App.app.dSYM/Contents/Resources/DWARF"
    try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
    try Data(big).write(to: URL(fileURLWithPath: dwarf + "/App"))
    chmod(root + "/Frameworks", 0o750)
    return root
}

@Suite struct ZipWriterTests {
    @Test func roundTripThroughLibarchiveKeepsEntriesLinksAndModes() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        let result = try ZipWriter(options: ZipOptions()).write(sources: [root], to: folder("App.zip"))
        let entries = try ZipReader.entries(at: result.path)
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) })

        #expect(result.entries == entries.count)
        #expect(entries.first?.path == "App.xcarchive")
        #expect(byName["App.xcarchive/Empty Folder"]?.kind == .directory)
        #expect(byName["App.xcarchive/Frameworks"]?.permissions == 0o750)
        #expect(byName["App.xcarchive/Products/Applications/App.app/App"]?.permissions == 0o755)
        #expect(byName["App.xcarchive/Products/Applications/App.app/secret.txt"]?.permissions == 0o600)
        #expect(byName["App.xcarchive/empty.txt"] == ZipEntry(path: "App.xcarchive/empty.txt", kind: .file, size: 0, permissions: 0o644))
        #expect(byName["App.xcarchive/outside"] == ZipEntry(path: "App.xcarchive/outside", kind: .symlink, size: 0, permissions: 0o777, symlinkTarget: "../../etc/passwd"))
        #expect(byName["App.xcarchive/absolute"]?.symlinkTarget == "/etc/hostname")
        #expect(byName["App.xcarchive/dangling"]?.symlinkTarget == "no/such/file")
        #expect(byName["App.xcarchive/Frameworks/Kit.framework/Kit"]?.symlinkTarget == "Versions/Current/Kit")
        #expect(byName["App.xcarchive/dSYMs/App.app.dSYM/Contents/Resources/DWARF/App"]?.size == 3 << 20)

        // Every file's data comes back byte for byte (and libarchive checks each CRC on the way).
        let reader = try ZipReader(path: result.path)
        var checked = 0
        while let entry = try reader.next() {
            guard entry.kind == .file else { continue }
            var data = Data()
            try reader.readData { data.append(contentsOf: $0) }
            let original = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + entry.path))
            #expect(data == original, "\(entry.path)")
            checked += 1
        }
        #expect(checked == 6)
    }

    @Test(.enabled(if: commandExists("unzip"), "needs Info-ZIP unzip (apt-get install unzip)"))
    func unzipRestoresTheSameTree() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        let zip = try ZipWriter(options: ZipOptions(level: 9)).write(sources: [root], to: folder("App.zip"))
        try FileManager.default.createDirectory(atPath: folder("unzipped"), withIntermediateDirectories: true)
        let unzip = try runCommand(["unzip", "-q", zip.path, "-d", folder("unzipped")])
        #expect(unzip.status == 0, "\(unzip.error)")
        let test = try runCommand(["unzip", "-tq", zip.path])
        #expect(test.output.contains("No errors detected"), "\(test.output)")
        #expect(try snapshot(folder("unzipped/App.xcarchive")) == snapshot(root))
    }

    @Test(.enabled(if: commandExists("bsdtar"), "needs libarchive's bsdtar (apt-get install libarchive-tools)"))
    func libarchiveExtractsTheSameTree() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        let zip = try ZipWriter(options: ZipOptions(level: 1, deterministic: true)).write(sources: [root], to: folder("App.zip"))
        try FileManager.default.createDirectory(atPath: folder("extracted"), withIntermediateDirectories: true)
        let extract = try runCommand(["bsdtar", "-xpf", zip.path, "-C", folder("extracted")])
        #expect(extract.status == 0, "\(extract.error)")
        #expect(try snapshot(folder("extracted/App.xcarchive")) == snapshot(root))
    }

    @Test func deterministicZipsAreIdenticalAcrossRunsAndTimestamps() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        let options = try ZipOptions(deterministic: true)
        let first = try ZipWriter(options: options).write(sources: [root], to: folder("one.zip"))
        // New modification times must not change a byte.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, root + "/Info.plist", &times, 0)
        let second = try ZipWriter(options: options).write(sources: [root], to: folder("two.zip"))
        let one = try Data(contentsOf: URL(fileURLWithPath: first.path))
        let two = try Data(contentsOf: URL(fileURLWithPath: second.path))
        #expect(one == two)
        #expect(first.sha256 == second.sha256)
        #expect(first.sha256 == FileDigest.sha256(of: one))
        #expect(first.size == Int64(one.count))
        // The first local header's DOS time and date: 1980-01-01 00:00:00.
        #expect(Array(one[0..<4]) == [0x50, 0x4B, 0x03, 0x04])
        #expect(Array(one[10..<14]) == [0x00, 0x00, 0x21, 0x00])

        let plain = try ZipWriter(options: ZipOptions()).write(sources: [root], to: folder("plain.zip"))
        #expect(plain.sha256 != first.sha256, "non-deterministic zips keep real timestamps")
    }

    @Test func aLinkPointingOutsideTheTreeIsStoredAsALink() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("secret.txt"), "do not follow me")
        let root = folder("tree")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "../secret.txt")
        let zip = try ZipWriter(options: ZipOptions()).write(sources: [root], to: folder("tree.zip"))
        let entries = try ZipReader.entries(at: zip.path)
        #expect(
            entries == [
                ZipEntry(path: "tree", kind: .directory, size: 0, permissions: 0o755),
                ZipEntry(path: "tree/link", kind: .symlink, size: 0, permissions: 0o777, symlinkTarget: "../secret.txt"),
            ])
        #expect(zip.uncompressedBytes == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip.path))
        #expect(bytes.range(of: Data("do not follow me".utf8)) == nil)
    }

    @Test(arguments: [(0, UInt16(0)), (1, UInt16(8)), (6, UInt16(8)), (9, UInt16(8))])
    func levelSelectsStoreOrDeflate(level: Int, method: UInt16) throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("data/text.txt"), String(repeating: "compress me ", count: 10_000))
        let zip = try ZipWriter(options: ZipOptions(level: level)).write(sources: [folder("data")], to: folder("data.zip"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip.path)))
        // Compression method of each central directory header ("PK\1\2", method at offset 10).
        var methods: [String: UInt16] = [:]
        var index = 0
        while index + 46 <= bytes.count {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 1, bytes[index + 3] == 2 {
                let nameLength = Int(bytes[index + 28]) | Int(bytes[index + 29]) << 8
                let name = String(decoding: bytes[(index + 46)..<(index + 46 + nameLength)], as: UTF8.self)
                methods[name] = UInt16(bytes[index + 10]) | UInt16(bytes[index + 11]) << 8
                index += 46 + nameLength
            } else {
                index += 1
            }
        }
        #expect(methods == ["data/": 0, "data/text.txt": method])
        if level == 0 { #expect(zip.size > 120_000) } else { #expect(zip.size < 5_000) }
    }

    @Test func nonASCIINamesAreStoredAsFlaggedUTF8() throws {
        let folder = try TemporaryFolder()
        let name = "Résumé 日本.lproj"
        try writeFile(folder("tree/\(name)/Localizable.strings"), "\"hello\" = \"こんにちは\";\n")
        try FileManager.default.createSymbolicLink(atPath: folder("tree/ß-link"), withDestinationPath: name)
        let zip = try ZipWriter(options: ZipOptions()).write(sources: [folder("tree")], to: folder("tree.zip"))
        let entries = try ZipReader.entries(at: zip.path)
        #expect(entries.map(\.path) == ["tree", "tree/\(name)", "tree/\(name)/Localizable.strings", "tree/ß-link"])
        #expect(entries.last?.symlinkTarget == name)
        // General purpose bit 11 (UTF-8) in each central directory header with a non-ASCII name.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip.path)))
        var flags: [String: Bool] = [:]
        var index = 0
        while index + 46 <= bytes.count {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 1, bytes[index + 3] == 2 {
                let length = Int(bytes[index + 28]) | Int(bytes[index + 29]) << 8
                flags[String(decoding: bytes[(index + 46)..<(index + 46 + length)], as: UTF8.self)] = bytes[index + 9] & 0x08 != 0
                index += 46 + length
            } else {
                index += 1
            }
        }
        #expect(flags == ["tree/": false, "tree/\(name)/": true, "tree/\(name)/Localizable.strings": true, "tree/ß-link": true])
    }

    @Test func cancellationLeavesNoFileBehind() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        var polls = 0
        #expect(throws: CancellationError.self) {
            try ZipWriter(options: ZipOptions()).write(
                sources: [root], to: folder("App.zip"),
                isCancelled: {
                    polls += 1
                    return polls > 3
                })
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["App.xcarchive"])
    }

    @Test func cancellingTheTaskStopsTheAsyncWriter() async throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        for index in 0..<200 { try writeFile(root + "/many/\(index).bin", String(repeating: "\(index)", count: 50_000)) }
        let task = Task { try await ZipWriter(options: ZipOptions(level: 9)).write(sources: [root], to: folder("App.zip")) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: folder("App.zip")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["App.xcarchive"])
    }

    @Test func aFifoIsRefusedAndNoZipIsLeft() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("tree/a.txt"), "a")
        mkfifo(folder("tree/pipe"), 0o644)
        #expect(throws: ArchiveError.unsupportedFileType(path: folder("tree/pipe"), type: "fifo")) {
            try ZipWriter(options: ZipOptions()).write(sources: [folder("tree")], to: folder("tree.zip"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder("tree.zip")))
        #expect("\(ArchiveError.unsupportedFileType(path: "/x/pipe", type: "fifo"))" == "cannot zip '/x/pipe': unsupported file type 'fifo'")
    }

    @Test func missingSourceAndBadLevelAreClearErrors() throws {
        let folder = try TemporaryFolder()
        #expect(throws: ArchiveError.missingSource(path: folder("nothing"))) {
            try ZipWriter(options: ZipOptions()).write(sources: [folder("nothing")], to: folder("x.zip"))
        }
        try writeFile(folder("a.txt"), "a")
        #expect(throws: ArchiveError.io(path: folder("no/such/folder/a.zip"), reason: "No such file or directory")) {
            try ZipWriter(options: ZipOptions()).write(sources: [folder("a.txt")], to: folder("no/such/folder/a.zip"))
        }
        #expect(throws: ArchiveError.invalidLevel(10)) { try ZipOptions(level: 10) }
        #expect("\(ArchiveError.invalidLevel(10))" == "compression level '10' is not between 0 and 9")
    }

    @Test func excludedEntriesAndTheOutputItselfAreLeftOut() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("tree/keep.txt"), "keep")
        try writeFile(folder("tree/.DS_Store"), "junk")
        try writeFile(folder("tree/build/junk.o"), "junk")
        let options = try ZipOptions(exclude: ["*.DS_Store", "tree/build"])
        let zip = try ZipWriter(options: options).write(sources: [folder("tree")], to: folder("tree/self.zip"))
        #expect(try ZipReader.entries(at: zip.path).map(\.path) == ["tree", "tree/keep.txt"])
        // A second run does not zip the first zip into itself.
        let again = try ZipWriter(options: options).write(sources: [folder("tree")], to: folder("tree/self.zip"))
        #expect(again.entries == 2)
    }

    @Test func severalSourcesBecomeTopLevelEntries() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder("a/A.app.dSYM/Contents/Info.plist"), "a")
        try writeFile(folder("b/B.framework.dSYM/Contents/Info.plist"), "b")
        let zip = try ZipWriter(options: ZipOptions()).write(sources: [folder("a/A.app.dSYM"), folder("b/B.framework.dSYM")], to: folder("all.zip"))
        #expect(
            try ZipReader.entries(at: zip.path).map(\.path) == [
                "A.app.dSYM", "A.app.dSYM/Contents", "A.app.dSYM/Contents/Info.plist",
                "B.framework.dSYM", "B.framework.dSYM/Contents", "B.framework.dSYM/Contents/Info.plist",
            ])
        #expect(throws: ArchiveError.duplicateEntry("A.app.dSYM")) {
            try ZipWriter(options: ZipOptions()).write(sources: [folder("a/A.app.dSYM"), folder("a/A.app.dSYM")], to: folder("dup.zip"))
        }
    }

    @Test func progressReachesTheTotal() throws {
        let folder = try TemporaryFolder()
        let root = try makeTree(in: folder)
        var reports: [ZipProgress] = []
        let zip = try ZipWriter(options: ZipOptions()).write(sources: [root], to: folder("App.zip"), progress: { reports.append($0) })
        #expect(reports.last == ZipProgress(bytesDone: zip.uncompressedBytes, bytesTotal: zip.uncompressedBytes, entriesDone: zip.entries, entriesTotal: zip.entries))
        #expect(zip.uncompressedBytes == Int64(3 << 20) + 7000 + 8 + 9 + 8)
        #expect(reports.map(\.bytesDone) == reports.map(\.bytesDone).sorted())
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["RELEASE_SLOW_TESTS"] == "1", "writes a 4.1 GiB entry; set RELEASE_SLOW_TESTS=1"))
    func entriesOver4GiBUseZip64() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder("big"), withIntermediateDirectories: true)
        let size: Int64 = (4 << 30) + 4096
        let descriptor = open(folder("big/sparse.bin"), O_CREAT | O_WRONLY, 0o644)
        ftruncate(descriptor, off_t(size))
        close(descriptor)
        let zip = try ZipWriter(options: ZipOptions(level: 1)).write(sources: [folder("big")], to: folder("big.zip"))
        #expect(try ZipReader.entries(at: zip.path).last?.size == size)
    }
}
