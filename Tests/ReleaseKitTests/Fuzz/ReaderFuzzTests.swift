import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleasePipeline
@testable import ReleaseVersioning

/// Mutation fuzzing of every reader of outside input: pipeline files, pbxproj, xcconfig, Info.plist, XcodeGen
/// specs, Mach-O, zip and CMS. Each mutated input must be answered with a value or a typed error, never a crash
/// (a trap, a stack overflow) or a hang; pipeline errors must carry a location.
///
/// CI runs a bounded number of inputs per reader with a fixed seed, so a failure replays exactly;
/// `scripts/fuzz.sh` runs many more with a fresh seed (`RELEASE_FUZZ_ITERATIONS`, `RELEASE_FUZZ_SEED`). An input
/// that once crashed a reader stays in `Fixtures/Fuzz/` with the error it must now give (``FuzzRegressionTests``).
/// Every input is read on a thread with Darwin's 512 KiB secondary-thread stack (``SmallStack``), so a reader that
/// would overflow on a Mac crashes here too.
@Suite struct ReaderFuzzTests {
    static let iterations = ProcessInfo.processInfo.environment["RELEASE_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 150
    static let seed = ProcessInfo.processInfo.environment["RELEASE_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_124

    enum Reader: String, CaseIterable, CustomTestStringConvertible {
        case pipeline, pbxproj, xcconfig, infoPlist, xcodegen, machO, zip, cms
        var testDescription: String { rawValue }
    }

    @Test(arguments: Reader.allCases) func mutatedInputsNeverCrash(_ reader: Reader) throws {
        let seeds = try FuzzSeeds.seeds(for: reader)
        #expect(!seeds.isEmpty)
        // Each reader gets its own stream from the run's seed; `hashValue` would differ from process to process.
        var random = SplitMix64(seed: Self.seed &+ UInt64(Reader.allCases.firstIndex(of: reader)!) &* 0x9E37_79B9)
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var accepted = 0
        for index in 0..<Self.iterations {
            let input = Mutator.mutate(seeds[Int(random.next() % UInt64(seeds.count))], seeds: seeds, random: &random)
            let path = directory + "/input-\(index)" + reader.suffix
            let outcome = try SmallStack.run { try Self.feed(input, to: reader, at: path) }
            for problem in outcome.problems { Issue.record(Comment(rawValue: problem)) }
            if outcome.accepted { accepted += 1 }
        }
        // Some mutations leave a valid input: the readers still do their real work, not only the error paths.
        if Self.iterations >= 100 { #expect(accepted > 0, "every mutated \(reader) input was rejected") }
    }

    /// Runs one input through `reader`, written to `path` when the reader takes a file: whether it was accepted, and
    /// what is wrong with its errors (recorded by the test: this runs on a thread of its own). Typed errors are the
    /// expected outcome.
    private static func feed(_ bytes: [UInt8], to reader: Reader, at path: String) throws -> (accepted: Bool, problems: [String]) {
        if reader == .pipeline {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                _ = try PipelineLoader().load(path: path)
                return (true, [])
            } catch {
                var problems: [String] = []
                if case .invalid(let diagnostics) = error {
                    for diagnostic in diagnostics {
                        if diagnostic.location == nil { problems.append("no location: \(diagnostic)") }
                        if diagnostic.description.unicodeScalars.contains(where: { $0.value < 0x20 }) { problems.append("control character: \(diagnostic)") }
                    }
                }
                return (false, problems)
            }
        }
        return (try accepts(bytes, reader: reader, path: path), [])
    }

    /// Whether `reader` accepts `bytes` (any reader but the pipeline's).
    private static func accepts(_ bytes: [UInt8], reader: Reader, path: String) throws -> Bool {
        switch reader {
        case .pipeline:
            return false
        case .pbxproj:
            return (try? OpenStepPlist(bytes: bytes, path: path)) != nil
        case .xcconfig:
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return (try? XCConfigFile(contentsOf: path)) != nil
        case .infoPlist:
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return (try? InfoPlistFile(contentsOf: path, preprocessorDefinitions: ["DEBUG=1"])) != nil
        case .xcodegen:
            return (try? XcodeGenNode.parse(bytes, path: path)) != nil
        case .machO:
            return (try? MachOReader.read(bytes: bytes, path: path)) != nil
        case .zip:
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return (try? ZipReader.entries(at: path)) != nil
        case .cms:
            return (try? CMSSignedData.content(of: bytes)) != nil
        }
    }
}

extension ReaderFuzzTests.Reader {
    var suffix: String {
        switch self {
        case .pipeline: return ".json"
        case .pbxproj: return ".pbxproj"
        case .xcconfig: return ".xcconfig"
        case .infoPlist: return ".plist"
        case .xcodegen: return ".yml"
        case .machO: return ""
        case .zip: return ".zip"
        case .cms: return ".mobileprovision"
        }
    }
}

/// Byte-level mutations in the style of AFL's havoc stage, plus the shapes that broke parsers here: deep
/// nesting, huge numbers, long names, invalid UTF-8, truncation.
enum Mutator {
    static let interesting: [[UInt8]] = [
        [0x00], [0xFF], [0x7F], [0x80], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0x1B, 0x5B, 0x32, 0x4A],
        Array("99999999999999999999999".utf8), Array("1e19".utf8), Array("-0".utf8), Array("${".utf8),
        Array("\"".utf8), Array("\\".utf8), Array("#include \"".utf8), Array("$(".utf8), [0xFE, 0xED, 0xFA, 0xCF],
        [0xCA, 0xFE, 0xBA, 0xBE], [0x30, 0x80], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], Array("PK\u{3}\u{4}".utf8),
    ]

    static func mutate(_ seed: [UInt8], seeds: [[UInt8]], random: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        let rounds = 1 + Int(random.next() % 6)
        for _ in 0..<rounds {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 10 {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= 1 << UInt8(random.next() % 8)
            case 1 where !bytes.isEmpty:
                bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 2:
                bytes.insert(contentsOf: interesting[Int(random.next() % UInt64(interesting.count))], at: position)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + Int(random.next() % 64)))
            case 4:
                bytes = Array(bytes.prefix(position))
            case 5 where !bytes.isEmpty:
                let end = min(bytes.count, position + 1 + Int(random.next() % 256))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 6:
                // Deep nesting in whatever syntax the file has.
                let opener = [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "<")][Int(random.next() % 4)]
                bytes.insert(contentsOf: [UInt8](repeating: opener, count: 100 + Int(random.next() % 60_000)), at: position)
            case 7:
                // A long name.
                bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "a"), count: 1000 + Int(random.next() % 60_000)), at: position)
            case 8:
                // Splice in a piece of another seed.
                let other = seeds[Int(random.next() % UInt64(seeds.count))]
                guard !other.isEmpty else { continue }
                let start = Int(random.next() % UInt64(other.count))
                bytes.insert(contentsOf: other[start..<min(other.count, start + 1 + Int(random.next() % 512))], at: position)
            default:
                // A length or count field set to an extreme (big-endian and little-endian words alike).
                guard bytes.count >= 4 else { continue }
                let at = min(position, bytes.count - 4)
                let word: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x00], [0x80, 0, 0, 0]][Int(random.next() % 4)]
                bytes.replaceSubrange(at..<(at + 4), with: word)
            }
        }
        return bytes
    }
}

/// Valid inputs to mutate: the project's own fixtures, and small Mach-O and zip files built here.
enum FuzzSeeds {
    static func seeds(for reader: ReaderFuzzTests.Reader) throws -> [[UInt8]] {
        func files(_ pattern: (String) -> Bool, under folder: String) -> [[UInt8]] {
            let root = FixturePaths.root.appendingPathComponent(folder).path
            let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter(pattern).sorted() ?? []
            return found.prefix(24).compactMap { FileManager.default.contents(atPath: root + "/" + $0).map(Array.init) }
        }
        switch reader {
        case .pipeline:
            return files({ $0.hasSuffix(".json") }, under: "Pipelines") + files({ $0.hasSuffix(".json") }, under: "Fixtures/Pipelines")
        case .pbxproj:
            return files({ $0.hasSuffix("project.pbxproj") }, under: "Fixtures/Xcode")
        case .xcconfig:
            return files({ $0.hasSuffix(".xcconfig") }, under: "Fixtures")
        case .infoPlist:
            return files({ $0.hasSuffix("Info.plist") }, under: "Fixtures")
        case .xcodegen:
            return files({ $0.hasSuffix("project.yml") || $0.hasSuffix("project.json") }, under: "Fixtures/Xcode")
        case .machO:
            return [thinMachO(uuid: Array(0..<16)), fatMachO()]
        case .zip:
            return files({ $0.hasSuffix(".ipa") }, under: "Fixtures/IPA")
        case .cms:
            // The provisioning profiles inside the .ipa fixtures (CMS SignedData, DER and streamed BER).
            let folder = FixturePaths.root.appendingPathComponent("Fixtures/IPA").path
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ipa") }.sorted()
            return names.compactMap { try? ZipReader.prefix(of: "Payload/Demo.app/embedded.mobileprovision", in: folder + "/" + $0, count: 1 << 20) }
        }
    }

    private static func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)] }
    private static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }

    /// A 64-bit arm64 executable header with a segment and an LC_UUID.
    static func thinMachO(uuid: [UInt8]) -> [UInt8] {
        let segment = le32(0x19) + le32(72) + [UInt8](repeating: 0, count: 64)
        let uuidCommand = le32(0x1B) + le32(24) + uuid
        let body = segment + uuidCommand
        return le32(0xFEED_FACF) + le32(0x0100_000C) + le32(0) + le32(2) + le32(2) + le32(UInt32(body.count)) + le32(0) + le32(0) + body
    }

    /// A fat file with an arm64 and an x86_64 slice.
    static func fatMachO() -> [UInt8] {
        let first = thinMachO(uuid: Array(0..<16)), second = thinMachO(uuid: Array(16..<32))
        var header = be32(0xCAFE_BABE) + be32(2)
        header += be32(0x0100_000C) + be32(0) + be32(64) + be32(UInt32(first.count)) + be32(3)
        header += be32(0x0100_0007) + be32(3) + be32(UInt32(64 + first.count)) + be32(UInt32(second.count)) + be32(3)
        return header + [UInt8](repeating: 0, count: 64 - header.count) + first + second
    }
}
