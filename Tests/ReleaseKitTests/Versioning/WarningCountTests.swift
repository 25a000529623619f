import Foundation
import Testing

@testable import ReleaseVersioning

/// Issue 35: a warning worth reading is one line per cause; a missing file that many targets depend on is counted,
/// not listed target by target (a 1,400-character line on every command).
@Suite struct WarningCountTests {
    /// The demo project, whose three targets take their versions from Config/Version.xcconfig, with an optional
    /// include after the versions that the repository does not hold: it could override them all.
    @Test func aMissingFileManyTargetsDependOnIsOneLineWithACount() throws {
        let folder = TestPipelines.temporaryDirectory() + "/Demo"
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("DemoApp").path, toPath: folder)
        let config = folder + "/Config/Version.xcconfig"
        try (try String(contentsOfFile: config, encoding: .utf8) + "#include? \"Overrides.xcconfig\"\n").write(toFile: config, atomically: true, encoding: .utf8)
        let report = try VersionReader.read(in: folder).report
        #expect(
            report.warnings == [
                "Config/Version.xcconfig:4: optionally included file 'Config/Overrides.xcconfig' does not exist; the version and build of 3 targets may differ from what is shown: 'Demo', 'DemoKit' and 1 more (Debug, Release)"
            ], "\(report.warnings ?? [])")
    }
}
