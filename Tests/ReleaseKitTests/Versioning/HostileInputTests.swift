import Foundation
import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    /// Inputs built to exhaust a recursive reader: each must end in a clear error (or an unresolved value), not a
    /// stack overflow.
    @Suite struct HostileInputTests {
        @Test func pbxprojNestedFiftyThousandLevelsIsASyntaxError() {
            let depth = 50_000
            let text = "// !$*UTF8*$!\n" + String(repeating: "{a=", count: depth) + "b" + String(repeating: ";}", count: depth) + "\n"
            #expect(throws: VersioningError.syntax(file: "deep.pbxproj", line: 2, message: "dictionaries and arrays nested deeper than 64 levels")) {
                try OpenStepPlist(bytes: Array(text.utf8), path: "deep.pbxproj")
            }
            let arrays = "(" + String(repeating: "(", count: depth) + String(repeating: ")", count: depth) + ")"
            #expect(throws: VersioningError.syntax(file: "deep.pbxproj", line: 1, message: "dictionaries and arrays nested deeper than 64 levels")) {
                try OpenStepPlist(bytes: Array(arrays.utf8), path: "deep.pbxproj")
            }
            // Xcode's own depth is far from the limit.
            let fine = String(repeating: "{a=", count: OpenStepPlist.maximumDepth) + "b" + String(repeating: ";}", count: OpenStepPlist.maximumDepth)
            #expect((try? OpenStepPlist(bytes: Array(fine.utf8), path: "ok.pbxproj")) != nil)
        }

        @Test func xmlPlistNestedFiftyThousandLevelsIsASyntaxError() throws {
            let depth = 50_000
            let xml =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key>\n"
                + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "\n</dict>\n</plist>\n"
            let folder = try XcodeFixture.folder(with: ["Info.plist": xml])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(throws: VersioningError.syntax(file: folder + "/Info.plist", line: 5, message: "dictionaries and arrays nested deeper than 64 levels")) {
                try InfoPlistFile(contentsOf: folder + "/Info.plist")
            }
        }

        @Test func xcconfigIncludeChainDeeperThanTheLimitIsASyntaxError() throws {
            var files: [String: String] = [:]
            for index in 0..<100 { files["C\(index).xcconfig"] = "#include \"C\(index + 1).xcconfig\"\nK\(index) = \(index)\n" }
            files["C100.xcconfig"] = "LAST = 1\n"
            let folder = try XcodeFixture.folder(with: files)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(throws: VersioningError.syntax(file: folder + "/C15.xcconfig", line: 1, message: "'#include' nested deeper than 16 files")) {
                try XCConfigFile(contentsOf: folder + "/C0.xcconfig")
            }
        }

        @Test func includeCycleNamesTheWholeCycle() throws {
            let folder = try XcodeFixture.folder(with: [
                "App.xcconfig": "#include \"Version.xcconfig\"\n",
                "Version.xcconfig": "MARKETING_VERSION = 1.0\n#include \"Shared.xcconfig\"\n",
                "Shared.xcconfig": "// shared\n#include \"Version.xcconfig\"\n",
            ])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            do {
                _ = try XCConfigFile(contentsOf: folder + "/App.xcconfig")
                Issue.record("a cycle must be an error")
            } catch let error as VersioningError {
                #expect(error.description == "\(folder)/Shared.xcconfig:2: include cycle: Version.xcconfig -> Shared.xcconfig -> Version.xcconfig")
            }
        }

        /// `A0 = $(A1)`, `A1 = $(A2)`, … 10,000 deep, and a value nesting `$(` 10,000 times: an error naming where the
        /// limit was passed, not a crash and not a silently empty value.
        @Test func referenceChainsDeeperThanTheLimitAreErrors() throws {
            let depth = 10_000
            func define(_ key: String, _ value: String, line: Int) -> SettingDefinition {
                SettingDefinition(
                    key: key, condition: nil, value: value,
                    site: ValueSite(
                        path: "f", line: line, key: key, format: .xcconfig, range: 0..<1, quoted: false, rawValue: value))
            }
            var chain = (0..<depth).map { define("A\($0)", "$(A\($0 + 1))", line: $0 + 1) }
            chain.append(define("A\(depth)", "end", line: depth + 1))
            chain.append(define("NESTED", String(repeating: "$(X", count: depth) + String(repeating: ")", count: depth), line: depth + 2))
            let settings = BuildSettings(layers: [chain], defaults: [:])
            // Each setting is a lookup and an expansion: 16 settings reach the 32 levels.
            #expect(throws: VersioningError.settingExpansion(location: "f:16", key: "A15", problem: "nests references deeper than 32 levels")) {
                try settings.value(of: "A0")
            }
            #expect(try settings.value(of: "A\(depth - 10)") == "end")
            #expect(throws: VersioningError.settingExpansion(location: "f:\(depth + 2)", key: "NESTED", problem: "nests references deeper than 32 levels")) {
                try settings.value(of: "NESTED")
            }
            #expect(settings.origin(of: "A0")?.editable == false)
        }

        /// `V1 = $(V0)` sixteen times and so on: the value grows sixteenfold with each line, within the depth limit. The setting whose value first passes the limit is
        /// named with its line; `release version` and `bump` read the project through the same path.
        @Test func anXcconfigWhoseSettingsDoubleEachOtherIsAnErrorWithItsLine() throws {
            let folder = try XcodeFixture(name: "xcconfig-chain").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var lines = ["// The release manager bumps these", "APP_VERSION=$(V7)", "APP_BUILD=4146", "V0 = ab"]
            for level in 1...7 { lines.append("V\(level) = " + String(repeating: "$(V\(level - 1))", count: 16)) }
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/Config/Version.xcconfig", atomically: true, encoding: .utf8)
            do {
                _ = try VersionReader.read(in: folder)
                Issue.record("an expansion past the limit must be an error")
            } catch let error as VersioningError {
                // V4 is 128 KiB ("ab" times 16^4); V5, on line 9, is the first past 1 MiB.
                guard case .settingExpansion(let location, let key, let problem) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(location.hasSuffix("/Config/Version.xcconfig:9"))
                #expect(key == "V5")
                #expect(error.description == "\(location): build setting 'V5' expands to more than 1.0 MiB (settings that repeat each other multiply)")
                #expect(problem == "expands to more than 1.0 MiB (settings that repeat each other multiply)")
            }
        }

        /// Settings that repeat each other without growing are expanded once each, not once per path to them.
        @Test func repeatedSettingsAreExpandedOnce() throws {
            func define(_ key: String, _ value: String, line: Int) -> SettingDefinition {
                SettingDefinition(
                    key: key, condition: nil, value: value,
                    site: ValueSite(
                        path: "f", line: line, key: key, format: .xcconfig, range: 0..<1, quoted: false, rawValue: value))
            }
            var layer = [define("V0", "$(UNDEFINED)", line: 1)]
            // 14 levels: 4^14 paths to V0, and a chain within the depth limit.
            for level in 1...14 {
                layer.append(define("V\(level)", String(repeating: "$(V\(level - 1))", count: 4) + "$(MISSING_\(level % 3))", line: level + 1))
            }
            let settings = BuildSettings(layers: [layer], defaults: [:])
            let resolution = try settings.resolve("V14")
            #expect(resolution.value == "")
            #expect(resolution.undefinedReferences == ["UNDEFINED", "MISSING_1", "MISSING_2", "MISSING_0"])
        }

        /// Cycles at every level keep values from being remembered; the count of references followed stops it.
        @Test func settingsThatRepeatEachOtherInCyclesStopAtTheReferenceLimit() throws {
            func define(_ key: String, _ value: String, line: Int) -> SettingDefinition {
                SettingDefinition(
                    key: key, condition: nil, value: value,
                    site: ValueSite(
                        path: "f", line: line, key: key, format: .xcconfig, range: 0..<1, quoted: false, rawValue: value))
            }
            var layer = [define("V0", "x", line: 1)]
            // 4^13 paths, each through a cycle, within the depth limit.
            for level in 1...13 {
                layer.append(define("V\(level)", String(repeating: "$(V\(level - 1))", count: 4) + "$(C\(level))", line: 2 * level))
                layer.append(define("C\(level)", "$(V\(level))", line: 2 * level + 1))
            }
            let settings = BuildSettings(layers: [layer], defaults: [:])
            #expect(
                throws: VersioningError.settingExpansion(
                    location: "f:26", key: "V13", problem: "needs more than 65536 references to expand (settings that repeat each other in cycles)")
            ) {
                try settings.value(of: "V13")
            }
            // A small cycle still expands to the empty string, as before.
            #expect(try settings.value(of: "V2") == String(repeating: "x", count: 16))
        }

        /// A referenced base configuration that is missing is named with the pbxproj line that references it.
        @Test func missingBaseConfigurationNamesThePbxprojLine() throws {
            let folder = try XcodeFixture(name: "xcconfig-chain").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.removeItem(atPath: folder + "/Config/App-Debug.xcconfig")
            let pbxproj = try String(contentsOfFile: folder + "/Chain.xcodeproj/project.pbxproj", encoding: .utf8)
            let lines = pbxproj.components(separatedBy: "\n")
            let referenceID = try #require(
                lines.first { $0.contains("/* App-Debug.xcconfig */ = {isa = PBXFileReference") }?
                    .trimmingCharacters(in: .whitespaces).split(separator: " ").first)
            let line = try #require(lines.firstIndex { $0.contains("baseConfigurationReference = \(referenceID)") }) + 1
            let versions = try VersionReader.read(in: folder)
            // Release reads App-Release.xcconfig and is unaffected; Debug's values came only from the missing file.
            #expect(versions.report.version == "3.0.0")
            #expect(versions.report.entries.first { $0.configuration == "Debug" }?.version == nil)
            #expect(
                versions.report.warnings?.first
                    == "Chain.xcodeproj/project.pbxproj:\(line): base configuration 'Config/App-Debug.xcconfig' does not exist; the version and build of 'Chain' (Debug) are unknown"
            )
        }
    }
}
