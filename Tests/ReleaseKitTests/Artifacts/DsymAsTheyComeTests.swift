import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseSteps
@testable import ReleaseSupport

/// dSYMs as they come from real builds and downloads: junk, empty and damaged files in `DWARF/`, bundles named
/// by UUID, and Xcode 16's `.debug.dylib` beside the executable.
@Suite struct DsymAsTheyComeTests {
    /// A thin arm64 Mach-O header with one `LC_UUID` whose last byte is `id`; `truncated` drops the command.
    static func machO(_ id: UInt8, truncated: Bool = false) -> Data {
        func word(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)] }
        let uuid: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 0x20, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0, id]
        let header = word(0xFEED_FACF) + word(0x0100_000C) + word(0) + word(2) + word(1) + word(24) + word(0) + word(0)
        return Data(truncated ? header : header + word(0x1B) + word(24) + uuid)
    }

    static func uuid(_ id: UInt8) -> String {
        String(format: "DEADBEEF-0001-2002-8003-0000000000%02X", id)
    }

    /// An app with a debug dylib and a widget, its dSYM with three files that are not DWARF, and the widget's
    /// dSYM named by UUID.
    static func layout(in folder: TemporaryFolder) throws {
        func plist(_ executable: String) -> Data {
            try! PropertyListSerialization.data(fromPropertyList: ["CFBundleExecutable": executable], format: .xml, options: 0)
        }
        let files: [String: Data] = [
            "Demo.app/Info.plist": plist("Demo"),
            "Demo.app/Demo": machO(0xA1),
            "Demo.app/Demo.debug.dylib": machO(0xB2),
            "Demo.app/PlugIns/Widget.appex/Info.plist": plist("Widget"),
            "Demo.app/PlugIns/Widget.appex/Widget": machO(0xC3),
            "Demo.app.dSYM/Contents/Resources/DWARF/Demo": machO(0xA1),
            "Demo.app.dSYM/Contents/Resources/DWARF/Demo.debug.dylib": machO(0xB2),
            "Demo.app.dSYM/Contents/Resources/DWARF/notes.txt": Data("built on a Tuesday\n".utf8),
            "Demo.app.dSYM/Contents/Resources/DWARF/empty": Data(),
            "Demo.app.dSYM/Contents/Resources/DWARF/Broken": machO(0xEE, truncated: true),
            "\(uuid(0xC3)).dSYM/Contents/Resources/\(uuid(0xC3)).plist": plist("Widget"),
            "\(uuid(0xC3)).dSYM/Contents/Resources/DWARF/Widget": machO(0xC3),
        ]
        for (path, data) in files {
            try FileManager.default.createDirectory(atPath: FilePath.parent(of: folder(path)), withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: folder(path)))
        }
    }

    static let expectedWarnings = [
        "'Demo.app.dSYM/Contents/Resources/DWARF/Broken' is truncated: arm64 load commands needs 24 bytes at offset 32; skipped, the rest of 'Demo.app.dSYM' is still checked",
        "'Demo.app.dSYM/Contents/Resources/DWARF/empty' is empty or too short to be a mach-o file; skipped, the rest of 'Demo.app.dSYM' is still checked",
        "'Demo.app.dSYM/Contents/Resources/DWARF/notes.txt' is not a mach-o file (magic '0x6275696c'); skipped, the rest of 'Demo.app.dSYM' is still checked",
    ]

    @Test func unreadableFilesAreSkippedAndTheRestIsMatched() throws {
        let folder = try TemporaryFolder("dsyms")
        try Self.layout(in: folder)
        let inspection = try DsymInspector.inspect(folder.path)
        #expect(inspection.warnings == Self.expectedWarnings)
        #expect(inspection.binaries.map(\.path) == ["Demo.app/Demo", "Demo.app/Demo.debug.dylib", "Demo.app/PlugIns/Widget.appex/Widget"])
        #expect(inspection.binaries.map(\.role) == [.app, .debugDylib, .appExtension])
        #expect(
            inspection.dsyms.map(\.path) == [
                "\(Self.uuid(0xC3)).dSYM/Contents/Resources/DWARF/Widget",
                "Demo.app.dSYM/Contents/Resources/DWARF/Demo", "Demo.app.dSYM/Contents/Resources/DWARF/Demo.debug.dylib",
            ])
        let report = try #require(inspection.report)
        #expect(report.isComplete, "\(report.problems)")
        #expect(report.unmatchedDsymSlices.isEmpty)
        // Each binary, the debug dylib included, is matched by UUID, whatever its dSYM is called.
        #expect(
            report.slices.map(\.dsym) == [
                "Demo.app.dSYM/Contents/Resources/DWARF/Demo", "Demo.app.dSYM/Contents/Resources/DWARF/Demo.debug.dylib",
                "\(Self.uuid(0xC3)).dSYM/Contents/Resources/DWARF/Widget",
            ])
    }

    /// A rebuilt binary is still caught when the same dSYM also holds junk.
    @Test func aMismatchBesideJunkIsStillAMismatch() throws {
        let folder = try TemporaryFolder("dsyms")
        try Self.layout(in: folder)
        try Self.machO(0xA9).write(to: URL(fileURLWithPath: folder("Demo.app/Demo")))
        let report = try #require(try DsymInspector.inspect(folder.path).report)
        #expect(
            report.problems == [
                "binary 'Demo.app/Demo' (arm64) has uuid '\(Self.uuid(0xA9))' but its dSYM 'Demo.app.dSYM/Contents/Resources/DWARF/Demo' has uuid '\(Self.uuid(0xA1))'"
            ])
    }

    /// The gate warns about what it skipped and decides on what it could check.
    @Test func theGatePassesOnWhatItCouldCheck() async throws {
        let folder = try TemporaryFolder("dsyms")
        try Self.layout(in: folder)
        let recorder = EventRecorder()
        let gate = try DsymGateStep(options: .with { $0.archive = folder.path })
        let outputs = try await gate.run(in: recorder.context(DsymGateStep.kind, in: folder.path))
        #expect(outputs["binaries"] == .number(3))
        let warnings = recorder.events.compactMap { event -> String? in
            if case .warning(let message) = event { return message }
            return nil
        }
        #expect(warnings == Self.expectedWarnings)
    }
}
