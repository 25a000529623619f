import Foundation
import Testing

@testable import ReleaseSupport
@testable import ReleaseVersioning

extension VersioningTests {
    /// XcodeGen specs: read alone, read beside the project they generate, bumped in both with the smallest diff.
    @Suite struct XcodeGenTests {
        /// A plain `3.10` is the YAML number 3.1 and XcodeGen writes `3.1`: the engine reads what XcodeGen writes,
        /// warns, and quotes a new value that would otherwise turn into a number.
        @Test func yamlNumbersAreReadAsXcodeGenWritesThem() throws {
            let folder = try XcodeFixture.folder(with: [
                "project.yml": """
                name: Num
                settings:
                  MARKETING_VERSION: 3.10
                  CURRENT_PROJECT_VERSION: 7
                targets:
                  Num:
                    type: application
                    platform: iOS

                """
            ])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let versions = try VersionReader.read(in: folder)
            #expect(versions.report.kind == .xcodegen)
            #expect(versions.report.version == "3.1")
            #expect(
                versions.report.warnings == [
                    "project.yml:3: MARKETING_VERSION is the YAML number 3.10, which XcodeGen writes as '3.1'; quote it (\"3.10\") to keep it as written"
                ])
            let plan = try BumpPlanner.plan(versions, version: "3.10", build: "8")
            try FileTransaction.apply(plan.files)
            let text = try String(contentsOfFile: folder + "/project.yml", encoding: .utf8)
            #expect(text.contains("  MARKETING_VERSION: \"3.10\"\n  CURRENT_PROJECT_VERSION: 8\n"))
            #expect(try VersionReader.read(in: folder).report.version == "3.10")
        }

        @Test func plainScalarsStayPlainWhenTheyCan() {
            #expect(BumpPlanner.isPlainYAML("26.07.5"))
            #expect(BumpPlanner.isPlainYAML("1.0"))
            #expect(BumpPlanner.isPlainYAML("42"))
            #expect(BumpPlanner.isPlainYAML("7.75.0.3"))
            #expect(!BumpPlanner.isPlainYAML("3.10"))
            #expect(!BumpPlanner.isPlainYAML("007"))
            #expect(!BumpPlanner.isPlainYAML("yes"))
            #expect(!BumpPlanner.isPlainYAML("1.0 beta"))
            let single = ValueSite(path: "p", line: 1, key: "K", format: .yamlSingleQuoted, range: 0..<1, quoted: true, rawValue: "1")
            #expect(BumpPlanner.token("it's", for: single) == "'it''s'")
        }

        @Test func includeCyclesAndMissingIncludes() throws {
            let folder = try XcodeFixture.folder(with: [
                "project.yml": "name: Loop\ninclude:\n  - a.yml\n  - gone.yml\n",
                "a.yml": "include: [b.yml]\n",
                "b.yml": "include:\n  - path: a.yml\n",
            ])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(throws: VersioningError.includeCycle(file: folder + "/b.yml", line: 2, chain: ["a.yml", "b.yml", "a.yml"])) {
                try XcodeGenSpec(contentsOf: folder + "/project.yml")
            }
            try "name: Loop\ninclude:\n  - gone.yml\n".write(toFile: folder + "/project.yml", atomically: true, encoding: .utf8)
            let spec = try XcodeGenSpec(contentsOf: folder + "/project.yml")
            #expect(spec.missing == [MissingFile(path: folder + "/gone.yml", reference: .xcodegen, referencedAt: folder + "/project.yml:3")])
        }

        @Test func yamlSyntaxErrorsNameTheLine() throws {
            let folder = try XcodeFixture.folder(with: ["project.yml": "name: Bad\nsettings:\n  MARKETING_VERSION: [1.0\n"])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            do {
                _ = try VersionReader.read(in: folder)
                Issue.record("a YAML error must be reported")
            } catch let error as VersioningError {
                guard case .syntax(let file, let line, _) = error else { throw error }
                #expect(file == folder + "/project.yml")
                #expect(line == 4)
            }
        }

        /// Element X without its generated project: the spec and its includes (app.yml, each target's target.yml) read
        /// alone, every target with the version the spec defines.
        @Test(.needsShared(.realProjects)) func elementXSpecAloneReads() throws {
            let folder = try XcodeFixture.temporaryDirectory() + "/element"
            defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
            try FileManager.default.copyItem(atPath: try RealProjectsCorpus.head("element-x-ios"), toPath: folder)
            try FileManager.default.removeItem(atPath: folder + "/ElementX.xcodeproj")
            let versions = try VersionReader.read(in: folder)
            #expect(versions.report.kind == .xcodegen)
            #expect(versions.report.project == "project.yml")
            let apps = versions.report.entries.filter { $0.productType == "com.apple.product-type.application" || $0.host == "ElementX" }
            #expect(apps.map(\.target) == ["ElementX", "ElementX", "NSE", "NSE", "ShareExtension", "ShareExtension"])
            #expect(apps.allSatisfy { $0.version == "26.07.5" && $0.build == "1" })
            #expect(apps.allSatisfy { $0.versionDefinedAt?.description == "project.yml:56 (MARKETING_VERSION)" })
            #expect(versions.report.entries.count == 18)
            #expect(versions.report.warnings ?? [] == [])
            let spec = try #require(versions.project)
            #expect(spec.configurations.map(\.name) == ["Debug", "Release"])
            #expect(spec.configurations.first?.settings.first { $0.key == "MARKETING_VERSION" }?.value == "26.07.5")
        }

        /// Beside its generated project, a spec that says something else is a warning naming its line.
        @Test(.needsShared(.realProjects)) func specAndProjectThatDisagreeAreReported() throws {
            let folder = try XcodeFixture.temporaryDirectory() + "/element"
            defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
            try FileManager.default.copyItem(atPath: try RealProjectsCorpus.head("element-x-ios"), toPath: folder)
            let spec = folder + "/project.yml"
            try (try String(contentsOfFile: spec, encoding: .utf8)).replacingOccurrences(of: "MARKETING_VERSION: 26.07.5", with: "MARKETING_VERSION: 26.07.6")
                .write(toFile: spec, atomically: true, encoding: .utf8)
            let versions = try VersionReader.read(in: folder)
            #expect(versions.report.version == "26.07.5", "the generated project is what Xcode builds")
            let warnings = versions.report.warnings ?? []
            #expect(warnings.contains("project.yml:56: MARKETING_VERSION is '26.07.6' but the generated project has '26.07.5' (project, Debug); run xcodegen or bump again"))
            #expect(warnings.contains("project.yml:56: MARKETING_VERSION is '26.07.6' but the generated project has '26.07.5' (project, Release); run xcodegen or bump again"))
            // A bump from 26.07.5 does not overwrite the spec's other value; it says so.
            let plan = try BumpPlanner.plan(versions, version: "26.07.7", build: nil)
            #expect(plan.files.map(\.displayPath) == ["ElementX.xcodeproj/project.pbxproj"])
            #expect(plan.notes.contains("project.yml:56: MARKETING_VERSION is '26.07.6', not '26.07.5' as in the project; left as it is"))
        }

        /// A spec without the definition the project has: the bump says xcodegen would undo it.
        @Test(.needsShared(.realProjects)) func specWithoutTheDefinitionGetsANote() throws {
            let folder = try XcodeFixture.temporaryDirectory() + "/element"
            defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
            try FileManager.default.copyItem(atPath: try RealProjectsCorpus.head("element-x-ios"), toPath: folder)
            let spec = folder + "/project.yml"
            try (try String(contentsOfFile: spec, encoding: .utf8)).replacingOccurrences(of: "  MARKETING_VERSION: 26.07.5\n", with: "")
                .write(toFile: spec, atomically: true, encoding: .utf8)
            let versions = try VersionReader.read(in: folder)
            let plan = try BumpPlanner.plan(versions, version: "26.07.6", build: nil)
            #expect(plan.files.map(\.displayPath) == ["ElementX.xcodeproj/project.pbxproj"])
            #expect(
                plan.notes.contains {
                    $0.hasPrefix("project.yml does not define MARKETING_VERSION for configuration 'Debug': xcodegen would undo the bump of ElementX.xcodeproj/project.pbxproj:")
                })
        }
    }
}
