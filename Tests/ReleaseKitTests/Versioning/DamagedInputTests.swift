import Foundation
import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    /// Truncated and corrupted copies of the fixtures: every reader throws or returns, none crashes.
    @Suite struct DamagedInputTests {
        private func damaged(_ data: Data, _ generator: inout SplitMix64) -> [UInt8] {
            var bytes = Array(data)
            if bytes.isEmpty { return bytes }
            switch generator.next() % 3 {
            case 0:
                bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
            case 1:
                for _ in 0..<(1 + Int(generator.next() % 8)) {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    bytes[index] =
                        [
                            UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ";"),
                            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: "*"),
                            UInt8(ascii: "\\"), 0, 0xFF,
                        ][Int(generator.next() % 13)]
                }
            default:
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: Array("$(A:default=$(B)\"/*#include? \"x\"\n".utf8), at: index)
            }
            return bytes
        }

        @Test func readersNeverCrash() throws {
            var generator = SplitMix64(seed: 7)
            let sources = [
                "many-places/Many.xcodeproj/project.pbxproj", "xcconfig-chain/Config/Shared.xcconfig",
                "literal-plist/Classic/Info.plist", "version-file/VERSION", "binary-plist/Binary/Info.plist",
            ].map { XcodeFixture.root + "/Fixtures/Xcode/" + $0 }
            let folder = try XcodeFixture.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for round in 0..<150 {
                for source in sources {
                    let data = try Data(contentsOf: URL(fileURLWithPath: source))
                    let bytes = damaged(data, &generator)
                    let path = folder + "/\(round)-" + (source as NSString).lastPathComponent
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                    _ = try? OpenStepPlist(bytes: bytes, path: path)
                    _ = try? XCConfigFile(contentsOf: path)
                    _ = try? InfoPlistFile(contentsOf: path)
                    _ = try? VersionFile(contentsOf: path)
                    _ = SemanticVersion(String(decoding: bytes.prefix(12), as: UTF8.self))
                    _ = InfoPlistFile.locateStrings(in: bytes, path: path)
                }
            }
        }

        @Test func damagedProjectsFailWithALocation() throws {
            let folder = try XcodeFixture(name: "pbxproj-per-target").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/Demo.xcodeproj/project.pbxproj"
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: "\t\t\t\tMARKETING_VERSION = 3.0.0;\n", with: "\t\t\t\tMARKETING_VERSION = 3.0.0\n")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try VersionReader.read(in: folder)
                Issue.record("a missing ';' must be reported")
            } catch let error as VersioningError {
                #expect(error == .syntax(file: path, line: 257, message: "expected ';' after the value of 'MARKETING_VERSION', found 'P'"))
            }
        }
    }
}
