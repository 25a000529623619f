import Foundation
import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    /// Every project of `../shared/real-projects` read into the table written for it in ``RealProjectTable``.
    @Suite(.needsShared(.realProjects)) struct RealProjectReadingTests {
        /// `target[ < host] | configuration | version location | build location`, as the tables write rows.
        static func row(_ entry: VersionEntry) -> String {
            func value(_ value: String?, _ location: DefinitionLocation?) -> String {
                guard let value else { return "-" }
                guard let location else { return value }
                return "\(value) \(location.file)\(location.line.map { ":\($0)" } ?? "") \(location.key)"
            }
            let target = entry.host.map { "\(entry.target) < \($0)" } ?? entry.target
            return "\(target) | \(entry.configuration ?? "-") | \(value(entry.version, entry.versionDefinedAt)) | \(value(entry.build, entry.buildDefinedAt))"
        }

        @Test(arguments: RealProjectTable.all)
        func readsWhatXcodeReads(table: RealProjectTable) throws {
            let head = try RealProjectsCorpus.head(table.app)
            let versions = try VersionReader.read(project: table.project, in: head)
            let report = versions.report

            var expected: [String] = []
            for row in table.rows {
                let parts = row.components(separatedBy: " | ")
                let configurations = parts[1] == "*" ? table.configurations : [parts[1]]
                for configuration in configurations {
                    expected.append(([parts[0], configuration] + parts[2...]).joined(separator: " | "))
                }
            }
            let actual = report.entries.map(Self.row)
            #expect(actual.count == expected.count, "\(table.testDescription): \(actual.count) rows, expected \(expected.count)")
            for missing in expected where !actual.contains(missing) {
                Issue.record("\(table.testDescription): expected row not reported: \(missing)")
            }
            for extra in actual where !expected.contains(extra) {
                Issue.record("\(table.testDescription): unexpected row: \(extra)")
            }
            let header = report.table().components(separatedBy: "\n").first ?? ""
            #expect((header.hasPrefix("TARGET") ? "" : header) == table.header)
            #expect(report.warnings ?? [] == table.warnings)
            #expect(report.xcodegenSpec == table.xcodegenSpec)
            // Configurations in the order the project lists them, for each target.
            for target in Set(report.entries.map(\.target)) {
                #expect(report.entries.filter { $0.target == target }.compactMap(\.configuration) == table.configurations, "\(target)")
            }
        }

        /// Every `.xcodeproj` in the corpus has a table, so a project added to it cannot go unread.
        @Test func everyProjectHasATable() throws {
            let root = try RealProjectsCorpus.require()
            var found: [String] = []
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".xcodeproj"), path.contains("/head/") else { continue }
                enumerator?.skipDescendants()
                found.append(path)
            }
            let covered = RealProjectTable.all.map { table -> String in
                if let project = table.project { return "\(table.app)/head/\(project)" }
                let head = root + "/\(table.app)/head"
                let versions = try? VersionReader.read(in: head)
                return "\(table.app)/head/" + (versions.map { ProjectVersions.relative($0.baseDirectory + "/" + $0.report.project, to: head) } ?? "?")
            }
            #expect(Set(found) == Set(covered))
            #expect(found.count == 14)
        }
    }
}
