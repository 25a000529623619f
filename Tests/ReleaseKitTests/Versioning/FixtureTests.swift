import Foundation
import Testing

@testable import ReleaseSupport
@testable import ReleaseVersioning

extension VersioningTests {
    /// Every fixture read into its expected report, bumped, and compared byte for byte with its expected files.
    @Suite struct VersioningFixtureTests {
        @Test(arguments: XcodeFixture.names)
        func readsTheExpectedReport(name: String) throws {
            let fixture = XcodeFixture(name: name)
            let versions = try VersionReader.read(in: fixture.source)
            let json = try versions.report.jsonText()
            let snapshot = fixture.expected + "/report.json"
            if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
                try json.write(toFile: snapshot, atomically: true, encoding: .utf8)
            }
            let expected = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(json == expected, "report of '\(name)' differs from expected/report.json (RECORD_SNAPSHOTS=1 re-records)")

            // The human table, as `release version` prints it.
            let table = versions.report.table()
            let tableSnapshot = fixture.expected + "/report.txt"
            if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
                try table.write(toFile: tableSnapshot, atomically: true, encoding: .utf8)
            }
            #expect(table == (try String(contentsOfFile: tableSnapshot, encoding: .utf8)), "table of '\(name)' differs from expected/report.txt")
        }

        @Test(arguments: XcodeFixture.names)
        func bumpWritesExactlyTheExpectedFiles(name: String) async throws {
            let fixture = XcodeFixture(name: name)
            let bump = try fixture.bump()
            let folder = try fixture.copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = XcodeFixture.files(in: folder)

            let versions = try VersionReader.read(in: folder)
            let scope = try BumpScope(versions)
            let strategy = try BuildNumberStrategy(parsing: bump.build)
            let build = try await strategy.resolve(
                currentBuilds: scope.buildEntries.compactMap { versions.tracked[$0].entry.build }, environment: [:], now: Date(),
                commitCount: { throw VersioningError.git("no git in this test") }
            )
            let plan = try BumpPlanner.plan(versions, choice: try VersionChoice(parsing: bump.choice), build: build)
            #expect(plan.version == bump.version)
            try FileTransaction.apply(plan.files)

            let after = XcodeFixture.files(in: folder)
            let expectedAfter = XcodeFixture.files(in: fixture.expected + "/after")
            #expect(!expectedAfter.isEmpty)
            #expect(Set(after.keys) == Set(before.keys), "a bump must not create or delete files")
            for (path, data) in after {
                if let expected = expectedAfter[path] {
                    if path.hasSuffix(".plist"), expected.starts(with: Array("bplist".utf8)) {
                        // Binary plists are compared by content: the encoder's byte layout is its own business.
                        #expect(data.starts(with: Array("bplist00".utf8)), "\(path) must stay a binary plist")
                        let written = try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
                        let wanted = try PropertyListSerialization.propertyList(from: expected, format: nil) as? NSDictionary
                        #expect(written == wanted, "\(path) differs from expected/after/\(path)")
                    } else {
                        #expect(data == expected, "\(path) differs from expected/after/\(path)")
                    }
                } else {
                    #expect(data == before[path], "\(path) must not change")
                }
            }
            // The bumped project reads back at the new version everywhere the bump covers.
            let reread = try VersionReader.read(in: folder)
            #expect(reread.report.version == bump.version)
            for index in scope.versionEntries {
                let tracked = reread.tracked[index]
                #expect(tracked.entry.version == bump.version, "\(tracked.entry.target) \(tracked.entry.configuration ?? "")")
            }
            for index in scope.buildEntries {
                #expect(reread.tracked[index].entry.build == build, "\(reread.tracked[index].entry.target)")
            }
        }

        @Test func literalPlistValuesAreDefinedInThePlist() throws {
            let report = try VersionReader.read(in: XcodeFixture(name: "literal-plist").source).report
            #expect(report.version == "3.0.0")
            #expect(report.build == "4146")
            let release = try #require(report.entries.first { $0.configuration == "Release" })
            #expect(release.versionDefinedAt == DefinitionLocation(file: "Classic/Info.plist", line: 18, key: "CFBundleShortVersionString"))
            #expect(release.buildDefinedAt == DefinitionLocation(file: "Classic/Info.plist", line: 20, key: "CFBundleVersion"))
            #expect(release.infoPlist == "Classic/Info.plist")
            #expect(release.bundleIdentifier == "com.example.classic")
        }

        @Test func xcconfigChainIsFollowedToTheLiteral() throws {
            let report = try VersionReader.read(in: XcodeFixture(name: "xcconfig-chain").source).report
            for entry in report.entries {
                #expect(entry.version == "3.0.0")
                #expect(entry.build == "4146")
                #expect(entry.versionDefinedAt == DefinitionLocation(file: "Config/Version.xcconfig", line: 2, key: "APP_VERSION"))
                #expect(entry.buildDefinedAt == DefinitionLocation(file: "Config/Version.xcconfig", line: 3, key: "APP_BUILD"))
                // The unconditional value wins; the [sdk=iphonesimulator*] one is not used.
                #expect(entry.bundleIdentifier == "com.example.chain")
            }
        }

        @Test func extensionsAndWatchAppsKnowTheirHost() throws {
            let many = try VersionReader.read(in: XcodeFixture(name: "many-places").source).report
            let hosts = Dictionary(many.entries.map { ($0.target, $0.host ?? "") }, uniquingKeysWith: { first, _ in first })
            #expect(hosts == ["Many": "", "ManyShare": "Many", "ManyWidget": "Many", "ManyWatch": "Many", "ManyWatchExtension": "Many"])

            let generated = try VersionReader.read(in: XcodeFixture(name: "generated-plist").source)
            let watch = try #require(generated.report.entries.first { $0.target == "ModernWatch" })
            #expect(watch.host == "Modern")
            #expect(watch.infoPlist == "generated")
            #expect(watch.version == "2.4")
            // The test bundle keeps its own version and is not bumped.
            let tests = try #require(generated.tracked.firstIndex { $0.entry.target == "ModernTests" })
            #expect(generated.tracked[tests].entry.version == "1.0")
            #expect(try !BumpScope(generated).versionEntries.contains(tests))
        }

        @Test func disagreeingConfigurationsAreReported() throws {
            let report = try VersionReader.read(in: XcodeFixture(name: "configurations-disagree").source).report
            #expect(report.entries.map(\.configuration) == ["Debug", "Release", "AdHoc"])
            #expect(report.entries.map(\.version) == ["2.9.0", "3.0.0", "3.0.0"])
            #expect(report.entries.map(\.build) == ["1", "4146", "4145"])
            #expect(report.primaryConfiguration == "Release")
            #expect(report.version == "3.0.0")
            #expect(report.disagreements.count == 1)
        }

        @Test func tenDefinitionsChangeExactlyTenLines() throws {
            let folder = try XcodeFixture(name: "many-places").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.patch), build: nil)
            #expect(plan.version == "7.1.3")
            let diff = try #require(plan.files.first?.diff)
            let removed = diff.split(separator: "\n").filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }
            let added = diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }
            #expect(removed.count == 10)
            #expect(added.count == 10)
            #expect(added.allSatisfy { $0 == "+\t\t\t\tMARKETING_VERSION = 7.1.3;" })
        }

        @Test func binaryPlistStaysBinary() throws {
            let folder = try XcodeFixture(name: "binary-plist").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let versions = try VersionReader.read(in: folder)
            let app = try #require(versions.report.entries.first { $0.target == "Binary" })
            #expect(app.versionDefinedAt == DefinitionLocation(file: "Binary/Info.plist", line: nil, key: "CFBundleShortVersionString"))
            let plan = try BumpPlanner.plan(versions, choice: .part(.minor), build: "5000")
            let plist = try #require(plan.files.first { $0.displayPath == "Binary/Info.plist" })
            #expect(plist.isBinary)
            #expect(plist.diff == nil)
            #expect(plan.diff.contains("Binary file Binary/Info.plist changes: CFBundleShortVersionString '3.0.0' -> '3.1.0'"))
        }
    }
}

extension VersioningTests {
    /// Which targets a bump moves in the fixture built from real projects' traps.
    @Suite struct BumpScopeTests {
        /// Issue 34 item 4: releasing the iOS app leaves the project's app of another platform alone even when it was in
        /// step (Swiftfin's tvOS app, its own pbxproj lines, put at the iOS app's version here), whether the app is
        /// the project's main one or named (`app`, what `init` writes); explicit targets move exactly those.
        @Test(.needsShared(.realProjects)) func anAppOfAnotherPlatformKeepsItsVersion() throws {
            let folder = TestPipelines.temporaryDirectory() + "/swiftfin"
            defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
            try FileManager.default.copyItem(atPath: try RealProjectsCorpus.head("swiftfin"), toPath: folder)
            let pbxproj = folder + "/Swiftfin.xcodeproj/project.pbxproj"
            let text = try String(contentsOfFile: pbxproj, encoding: .utf8)
                .replacingOccurrences(of: "MARKETING_VERSION = 1.4.1;", with: "MARKETING_VERSION = 1.0;")
                .replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 70;", with: "CURRENT_PROJECT_VERSION = 1;")
            try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
            let versions = try VersionReader.read(in: folder)
            for scope in [try BumpScope(versions), try BumpScope(versions, app: "Swiftfin iOS"), try BumpScope(versions, targets: ["Swiftfin iOS"])] {
                #expect(Set(scope.versionEntries.map { versions.tracked[$0].entry.target }) == ["Swiftfin iOS"])
                #expect(Set(scope.buildEntries.map { versions.tracked[$0].entry.target }) == ["Swiftfin iOS"])
            }
            let tvOS = try BumpScope(versions, app: "Swiftfin tvOS")
            #expect(Set(tvOS.versionEntries.map { versions.tracked[$0].entry.target }) == ["Swiftfin tvOS"])
            #expect(
                try BumpScope(versions).notes == [
                    "'Swiftfin tvOS' keeps version 1.0 and build 1: another app of the project, released on its own (name it in 'targets' to move it too)"
                ])
            let both = try BumpScope(versions, targets: ["Swiftfin iOS", "Swiftfin tvOS"])
            #expect(Set(both.versionEntries.map { versions.tracked[$0].entry.target }) == ["Swiftfin iOS", "Swiftfin tvOS"])
        }

        @Test func inStepTargetsMoveAndTheOthersStayWithANote() throws {
            let versions = try VersionReader.read(in: XcodeFixture(name: "real-world-traps").source)
            let scope = try BumpScope(versions)
            let moving = Set(scope.versionEntries.map { versions.tracked[$0].entry.target })
            #expect(moving == ["Traps", "TrapsWidget", "TrapsKit"])
            #expect(
                scope.notes == [
                    "'TrapsHelper' keeps version 1.0 and build 1: another app of the project, released on its own (name it in 'targets' to move it too)",
                    "'TrapsTests' keeps version 1.0 and build 1: not in step with 'Traps' at 26.07.4 (7.75.0.3)",
                    "'TrapsUITests' keeps version 1.0 and build 1: not in step with 'Traps' at 26.07.4 (7.75.0.3)",
                ])
            // The helper app is embedded (Contents/Library/LoginItems) but does not ship "in" the app.
            #expect(versions.report.entries.first { $0.target == "TrapsHelper" }?.host == nil)
            #expect(versions.report.entries.first { $0.target == "TrapsWidget" }?.host == "Traps")
        }

        /// `--target`: only that target (and what shares its definitions) moves; the rest gets a note.
        @Test func chosenTargetsOnly() throws {
            let folder = try XcodeFixture(name: "real-world-traps").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let versions = try VersionReader.read(in: folder)
            let plan = try BumpPlanner.plan(versions, choice: .exact(#require(SemanticVersion("1.1"))), build: "2", targets: ["TrapsHelper"])
            #expect(plan.previousVersion == "1.0")
            #expect(plan.files.map(\.displayPath) == ["Traps.xcodeproj/project.pbxproj"])
            #expect(plan.changes.count == 6)
            #expect(plan.changes.allSatisfy { ($0.key == "MARKETING_VERSION" && $0.new == "1.1") || ($0.key == "CURRENT_PROJECT_VERSION" && $0.new == "2") })
            #expect(plan.notes.contains("'Traps' keeps version 26.07.4 and build 7.75.0.3: not a chosen target and shares no definition with one"))
            #expect(throws: VersioningError.unknownTarget("Nope", available: ["Traps", "TrapsWidget", "TrapsKit", "TrapsHelper", "TrapsTests", "TrapsUITests"])) {
                try BumpPlanner.plan(versions, choice: .keep, build: "2", targets: ["Nope"])
            }
        }

        /// An extension that drifted from its app moves with it, and the note says it was out of step.
        @Test func driftedExtensionsFollowTheirApp() throws {
            let folder = try XcodeFixture(name: "pbxproj-per-target").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let plan = try BumpPlanner.plan(try VersionReader.read(in: folder), choice: .part(.minor), build: "4321")
            #expect(plan.notes == ["'ShareExtension' moves with its app 'Demo' although its version 2.9 was not in step: an extension carries its app's version"])
        }
    }
}
