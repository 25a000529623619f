import Foundation
import Testing

@testable import ReleaseSupport
@testable import ReleaseVersioning

/// Xcode on a Mac usually reads from a case-insensitive disk, so an `#include` whose letter case differs from the
/// file's name works there (Simplenote's project has one); the version engine reads it the same way on Linux, with
/// a note, when exactly one file matches. The note comes on either disk: the tests pass on a Mac's APFS as on Linux,
/// but for the one that needs two names differing only in case, which a case-insensitive disk cannot hold.
@Suite struct IncludeLetterCaseTests {
    /// Whether the temporary folder's disk tells `a` from `A` (Linux's; not APFS' default).
    static let diskIsCaseSensitive: Bool = {
        guard let folder = try? XcodeFixture.temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/case", contents: Data())
        return !FileManager.default.fileExists(atPath: folder + "/CASE")
    }()

    /// The demo project, whose base configuration `Config/Version.xcconfig` now includes `include`, with `files`.
    static func demo(including include: String, files: [String: String]) throws -> String {
        let folder = try XcodeFixture.temporaryDirectory() + "/Demo"
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("DemoApp").path, toPath: folder)
        try "#include \"\(include)\"\n".write(toFile: folder + "/Config/Version.xcconfig", atomically: true, encoding: .utf8)
        for (name, text) in files {
            let path = folder + "/Config/" + name
            try FileManager.default.createDirectory(atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func anIncludeUnderAnotherLetterCaseIsReadWithANote() throws {
        let folder = try Self.demo(
            including: "shared/VERSIONS.XCCONFIG",
            files: ["Shared/Versions.xcconfig": "MARKETING_VERSION = 4.54\nCURRENT_PROJECT_VERSION = 17\n"])
        defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
        let report = try VersionReader.read(in: folder).report
        #expect(report.version == "4.54")
        #expect(report.build == "17")
        #expect(report.entries.first?.versionDefinedAt?.description == "Config/Shared/Versions.xcconfig:1 (MARKETING_VERSION)")
        #expect(
            report.warnings == [
                "Config/Version.xcconfig:1: '#include \"shared/VERSIONS.XCCONFIG\"' read as 'Shared/Versions.xcconfig': "
                    + "the letter case differs, which a case-insensitive disk (a Mac's default) accepts and a case-sensitive one does not"
            ])
    }

    /// Two files that differ only in case (possible on a case-sensitive disk): nothing is guessed, the include is
    /// missing as before.
    @Test(.enabled(if: diskIsCaseSensitive, "the temporary folder's disk is case-insensitive (a Mac's APFS): it cannot hold two files differing only in case"))
    func twoCandidatesAreNotGuessedBetween() throws {
        let folder = try Self.demo(
            including: "shared.xcconfig",
            files: ["Shared.xcconfig": "MARKETING_VERSION = 1.0\n", "SHARED.xcconfig": "MARKETING_VERSION = 2.0\n"])
        defer { try? FileManager.default.removeItem(atPath: FilePath.parent(of: folder)) }
        let report = try VersionReader.read(in: folder).report
        #expect(report.version == nil)
        #expect(
            report.warnings?.contains { $0.hasPrefix("Config/Version.xcconfig:1: included file 'Config/shared.xcconfig' does not exist; ") } == true,
            "\(report.warnings ?? [])")
    }

    @Test func theMatchIsFoundFolderByFolder() throws {
        let folder = try XcodeFixture.folder(with: ["Config/Shared/Base.xcconfig": ""])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(XCConfigFile.caseInsensitiveMatch(of: folder + "/config/SHARED/base.XCCONFIG") == folder + "/Config/Shared/Base.xcconfig")
        #expect(XCConfigFile.caseInsensitiveMatch(of: folder + "/Config/Shared/Base.xcconfig") == nil, "an exact path is not a match")
        #expect(XCConfigFile.caseInsensitiveMatch(of: folder + "/Config/Other.xcconfig") == nil)
    }
}
