import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSupport
@testable import ReleaseVersioning

/// Darwin gives every thread but the main one 512 KiB of stack (Linux: 8 MiB), the Swift cooperative pool's
/// included. Work run here gets the same, so a recursive reader that would overflow on a Mac crashes the test
/// process on Linux too.
enum SmallStack {
    /// Darwin's secondary-thread stack size.
    static let size = 512 * 1024

    /// Runs `body` on a new thread with a ``size`` stack and returns what it returned or throws what it threw.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        try BlockingWork.waitingOnStack(of: size, body)
    }
}

/// Every recursive reader, on a 512 KiB stack, on input nested exactly to its limit (read) and one level past it
/// (a located error, not a crash).
@Suite struct SmallStackTests {
    @Test func jsonAtItsLimitParsesAndOnePastIsAnErrorWithItsPosition() throws {
        let limit = JSONParser.maximumDepth
        #expect(limit == 64)
        @Sendable func nested(_ depth: Int) -> String {
            "{\"steps\": " + String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1) + "}"
        }
        let parsed = try SmallStack.run { try JSONParser.parse(nested(limit)).jsonText }
        #expect(parsed == "{\"steps\":" + String(repeating: "[", count: limit - 1) + "1" + String(repeating: "]", count: limit - 1) + "}")
        let past = try SmallStack.run { () -> JSONParser.SyntaxError? in
            do { _ = try JSONParser.parse(nested(limit + 1)); return nil } catch let error as JSONParser.SyntaxError { return error } catch { return nil }
        }
        #expect(
            past
                == JSONParser.SyntaxError(
                    message: "objects and arrays nested deeper than 64 levels",
                    location: SourceLocation(line: 1, column: 10 + limit)))
    }

    @Test func pbxprojAtItsLimitParsesAndOnePastIsAnErrorWithItsLine() throws {
        let limit = OpenStepPlist.maximumDepth
        #expect(limit == 64)
        @Sendable func nested(_ depth: Int) -> String {
            "// !$*UTF8*$!\n" + String(repeating: "{a=", count: depth - 1) + "{a=(\nb);}" + String(repeating: ";}", count: depth - 1) + "\n"
        }
        let read = try SmallStack.run { try OpenStepPlist(bytes: Array(nested(limit - 1).utf8), path: "deep.pbxproj").root.dictionary != nil }
        #expect(read)
        let past = try SmallStack.run { () -> VersioningError? in
            do { _ = try OpenStepPlist(bytes: Array(nested(limit).utf8), path: "deep.pbxproj"); return nil } catch { return error as? VersioningError }
        }
        #expect(past == .syntax(file: "deep.pbxproj", line: 2, message: "dictionaries and arrays nested deeper than 64 levels"))
    }

    @Test func xmlPlistAtItsLimitIsReadAndOnePastIsAnErrorWithItsLine() throws {
        let limit = InfoPlistFile.maximumDepth
        #expect(limit == 64)
        // The root dictionary is the first level.
        @Sendable func plist(_ depth: Int) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>CFBundleVersion</key>\n<string>7</string>\n<key>A</key>\n"
                + String(repeating: "<array>", count: depth - 1) + "\n" + String(repeating: "</array>", count: depth - 1) + "\n</dict>\n</plist>\n"
        }
        let folder = try XcodeFixture.folder(with: ["At.plist": plist(limit), "Past.plist": plist(limit + 1)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let version = try SmallStack.run { try InfoPlistFile(contentsOf: folder + "/At.plist").strings["CFBundleVersion"] }
        #expect(version == "7")
        let past = try SmallStack.run { () -> VersioningError? in
            do { _ = try InfoPlistFile(contentsOf: folder + "/Past.plist"); return nil } catch { return error as? VersioningError }
        }
        #expect(past == .syntax(file: folder + "/Past.plist", line: 7, message: "dictionaries and arrays nested deeper than 64 levels"))
    }

    @Test func xcconfigIncludesAtTheirLimitAreReadAndOnePastIsAnErrorWithItsLine() throws {
        let limit = XCConfigFile.maximumIncludeDepth
        #expect(limit == 16)
        @Sendable func chain(_ files: Int, prefix: String) -> [String: String] {
            var chain: [String: String] = [:]
            for index in 0..<files - 1 { chain["\(prefix)\(index).xcconfig"] = "#include \"\(prefix)\(index + 1).xcconfig\"\nK\(index) = \(index)\n" }
            chain["\(prefix)\(files - 1).xcconfig"] = "LAST = 1\n"
            return chain
        }
        let folder = try XcodeFixture.folder(with: chain(limit, prefix: "At").merging(chain(limit + 1, prefix: "Past")) { $1 })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keys = try SmallStack.run { try XCConfigFile(contentsOf: folder + "/At0.xcconfig").assignments.count }
        #expect(keys == limit)
        let past = try SmallStack.run { () -> VersioningError? in
            do { _ = try XCConfigFile(contentsOf: folder + "/Past0.xcconfig"); return nil } catch { return error as? VersioningError }
        }
        #expect(past == .syntax(file: folder + "/Past15.xcconfig", line: 1, message: "'#include' nested deeper than 16 files"))
    }

    @Test func settingReferencesAtTheirLimitExpandAndOnePastIsAnErrorWithItsLine() throws {
        let limit = BuildSettings.maximumDepth
        #expect(limit == 32)
        @Sendable func define(_ key: String, _ value: String, line: Int) -> SettingDefinition {
            SettingDefinition(
                key: key, condition: nil, value: value,
                site: ValueSite(
                    path: "f", line: line, key: key, format: .xcconfig, range: 0..<1, quoted: false, rawValue: value))
        }
        // `A0 = $(A1)`, `A1 = $(A2)`, …: following a reference is two levels (a lookup and an expansion).
        @Sendable func chain(_ settings: Int) -> BuildSettings {
            var chain = (0..<settings - 1).map { define("A\($0)", "$(A\($0 + 1))", line: $0 + 1) }
            chain.append(define("A\(settings - 1)", "end", line: settings))
            return BuildSettings(layers: [chain], defaults: [:])
        }
        let atLimit = try SmallStack.run { try chain(limit / 2).value(of: "A0") }
        #expect(atLimit == "end")
        let past = try SmallStack.run { () -> VersioningError? in
            do { _ = try chain(limit / 2 + 1).value(of: "A0"); return nil } catch { return error as? VersioningError }
        }
        #expect(past == .settingExpansion(location: "f:\(limit / 2)", key: "A\(limit / 2 - 1)", problem: "nests references deeper than \(limit) levels"))
        // A value nesting `$(` past the limit stops at its own line.
        let value = String(repeating: "$(X", count: limit + 1) + String(repeating: ")", count: limit + 1)
        let nested = try SmallStack.run { () -> VersioningError? in
            do { _ = try BuildSettings(layers: [[define("NESTED", value, line: 3)]], defaults: [:]).value(of: "NESTED"); return nil } catch { return error as? VersioningError }
        }
        #expect(nested == .settingExpansion(location: "f:3", key: "NESTED", problem: "nests references deeper than \(limit) levels"))
    }

    @Test func xcodegenSpecsAtTheirLimitAreReadAndOnePastIsAnErrorWithItsLine() throws {
        let limit = XcodeGenNode.maximumDepth
        #expect(limit == 64)
        // The root mapping is the first level; libyaml itself refuses only past 1,000.
        @Sendable func spec(_ depth: Int) -> String {
            "name: Deep\ndeep:\n  " + String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1) + "\n"
        }
        let folder = try XcodeFixture.folder(with: [
            "at/project.yml": spec(limit), "past/project.yml": spec(limit + 1), "libyaml/project.yml": spec(990),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = try SmallStack.run { try XcodeGenSpec(contentsOf: folder + "/at/project.yml").root["name"]?.string }
        #expect(name == "Deep")
        for (case_, depth) in [("past", limit + 1), ("libyaml", 990)] {
            let past = try SmallStack.run { () -> VersioningError? in
                do { _ = try XcodeGenSpec(contentsOf: folder + "/\(case_)/project.yml"); return nil } catch { return error as? VersioningError }
            }
            #expect(past == .syntax(file: folder + "/\(case_)/project.yml", line: 3, message: "mappings and sequences nested deeper than 64 levels"), "depth \(depth)")
        }
    }
}

/// Property lists read through Foundation (Info.plists in projects and archives, profiles, export options), XML and
/// binary, are measured before Foundation's recursive parser sees them.
@Suite struct PropertyListDepthTests {
    /// A binary plist of `depth` arrays, each holding the next (the last empty), written by hand: Foundation's own
    /// writer recurses too.
    static func binaryArrays(_ depth: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<depth {
            offsets.append(bytes.count)
            if index == depth - 1 {
                bytes.append(0xA0)
            } else {
                bytes.append(0xA1)
                bytes += withUnsafeBytes(of: UInt32(index + 1).bigEndian, Array.init)
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        bytes += withUnsafeBytes(of: UInt64(depth).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        return Data(bytes)
    }

    @Test func binaryPlistsAtTheLimitAreReadAndDeeperOnesAreRefused() throws {
        let limit = PropertyListDepth.maximum
        #expect(limit == 64)
        let atLimit = Self.binaryArrays(limit)
        let read = try SmallStack.run { PropertyListDepth.propertyList(from: atLimit) is [Any] }
        #expect(read)
        for depth in [limit + 1, 100_000] {
            let deep = Self.binaryArrays(depth)
            // Foundation reads what it is given; the check is what stands between it and the stack.
            let refused = try SmallStack.run { PropertyListDepth.propertyList(from: deep) == nil }
            #expect(refused, "depth \(depth)")
        }
    }

    @Test func aBinaryInfoPlistNestedPastTheLimitIsASyntaxError() throws {
        let folder = try XcodeFixture.folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.binaryArrays(100_000).write(to: URL(fileURLWithPath: folder + "/Info.plist"))
        let error = try SmallStack.run { () -> VersioningError? in
            do { _ = try InfoPlistFile(contentsOf: folder + "/Info.plist"); return nil } catch { return error as? VersioningError }
        }
        #expect(error == .syntax(file: folder + "/Info.plist", line: 1, message: "dictionaries and arrays nested deeper than 64 levels"))
    }

    @Test func xmlPlistsFromArchivesAndProfilesNestedPastTheLimitAreRefused() throws {
        let limit = PropertyListDepth.maximum
        func xml(_ depth: Int) -> Data {
            Data(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key>\n"
                    + String(repeating: "<array>", count: depth - 1) + String(repeating: "</array>", count: depth - 1) + "\n</dict>\n</plist>\n").utf8)
        }
        let atLimit = xml(limit), past = xml(limit + 1), deep = xml(100_000)
        let results = try SmallStack.run {
            [
                PropertyListDepth.propertyList(from: atLimit) != nil, PropertyListDepth.propertyList(from: past) == nil,
                PropertyListDepth.propertyList(from: deep) == nil,
            ]
        }
        #expect(results == [true, true, true])
        #expect(PropertyListDepth.lineExceedingMaximum(Array(past)) == 5)
    }
}
