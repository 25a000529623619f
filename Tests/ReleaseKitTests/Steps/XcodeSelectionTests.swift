import Foundation
import Testing

@testable import ReleaseApple
@testable import ReleaseSteps
@testable import ReleaseSupport

/// `xcode_version` on the Xcode steps: the installed Xcodes read from a folder laid out as a Mac's `/Applications`
/// (the probing a Mac does, on a fake folder here), the one to run chosen through `DEVELOPER_DIR`, and a preflight
/// failure that names the version wanted and those installed.
@Suite struct XcodeSelectionTests {
    /// A folder of fake Xcode apps: `Xcode_16.2.app` (version.plist), `Xcode.app` (26.0.1, Info.plist only), and a
    /// folder that is no Xcode.
    static func applications() throws -> String {
        let folder = TestPipelines.temporaryDirectory() + "/Applications"
        for (app, plist, version) in [("Xcode_16.2.app", "version.plist", "16.2"), ("Xcode.app", "Info.plist", "26.0.1"), ("Xcode_15.4.app", "version.plist", "15.4")] {
            let contents = folder + "/" + app + "/Contents"
            try FileManager.default.createDirectory(atPath: contents + "/Developer", withIntermediateDirectories: true)
            let data = try PropertyListSerialization.data(
                fromPropertyList: ["CFBundleShortVersionString": version, "ProductBuildVersion": "X"], format: .xml, options: 0)
            try data.write(to: URL(fileURLWithPath: contents + "/" + plist))
        }
        try FileManager.default.createDirectory(atPath: folder + "/Xcode Notes.app/Contents", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/Safari.app/Contents", withIntermediateDirectories: true)
        return folder
    }

    static func context(_ environment: [String: String] = [:]) -> (StepContext, Recorder<StepEvent>) {
        let events = Recorder<StepEvent>()
        // No xcode-select or xcodebuild on this PATH: only the folder and DEVELOPER_DIR say anything.
        let context = StepContext(
            stepID: "archive", kind: XcodeArchiveStep.kind, workingDirectory: TestPipelines.temporaryDirectory(),
            environment: ["PATH": "/nonexistent"].merging(environment) { _, new in new }, sink: { [events] in events.append($0) })
        return (context, events)
    }

    @Test func installedXcodesAreReadFromTheirPlists() throws {
        let folder = try Self.applications()
        #expect(
            XcodeInstallation.installed(in: folder) == [
                XcodeInstallation(path: folder + "/Xcode.app", version: "26.0.1"), XcodeInstallation(path: folder + "/Xcode_15.4.app", version: "15.4"),
                XcodeInstallation(path: folder + "/Xcode_16.2.app", version: "16.2"),
            ])
        #expect(XcodeInstallation.at(folder + "/Xcode_16.2.app/Contents/Developer/")?.version == "16.2")
        #expect(XcodeInstallation.installed(in: folder + "/missing").isEmpty)
    }

    @Test func versionsMatchAsPinsAreRead() {
        #expect(XcodeInstallation.version("16.2", satisfies: "16.2"))
        #expect(XcodeInstallation.version("16.2.1", satisfies: "16.2"))
        #expect(XcodeInstallation.version("16.2", satisfies: "16.2.0"))
        #expect(XcodeInstallation.version("16.4", satisfies: "16"))
        #expect(!XcodeInstallation.version("16.4", satisfies: "16.2"))
        #expect(!XcodeInstallation.version("26.0", satisfies: "16"))
    }

    @Test func anInstalledXcodeOfTheVersionRunsThroughDeveloperDir() async throws {
        let folder = try Self.applications()
        let (context, events) = Self.context()
        let environment = try await XcodeSelection.environment(for: "16.2", in: context, applications: folder)
        #expect(environment == ["DEVELOPER_DIR": folder + "/Xcode_16.2.app/Contents/Developer"])
        #expect(events.all.contains(.log("Xcode 16.2 (xcode_version): \(folder)/Xcode_16.2.app (DEVELOPER_DIR=\(folder)/Xcode_16.2.app/Contents/Developer)", .stdout)))
        // The selected one already is it: nothing changes.
        let (selected, _) = Self.context(["DEVELOPER_DIR": folder + "/Xcode.app/Contents/Developer"])
        #expect(try await XcodeSelection.environment(for: "26", in: selected, applications: folder) == [:])
    }

    @Test func aVersionNotInstalledFailsNamingThoseThatAre() async throws {
        let folder = try Self.applications()
        let (context, _) = Self.context(["DEVELOPER_DIR": folder + "/Xcode.app/Contents/Developer"])
        await #expect(
            throws: StepError.failed(
                "Xcode 16.3 (xcode_version) is not installed here: installed: Xcode 26.0.1 (\(folder)/Xcode.app), selected; Xcode 15.4 (\(folder)/Xcode_15.4.app); Xcode 16.2 (\(folder)/Xcode_16.2.app); run on a runner image that has Xcode 16.3, or install it (xcodes install 16.3)"
            )
        ) {
            _ = try await XcodeSelection.environment(for: "16.3", in: context, applications: folder)
        }
    }

    @Test func whereNothingIsInstalledTheSelectedXcodebuildSays() async throws {
        // Linux with the fake xcodebuild: no folder to look in, `xcodebuild -version` is the Xcode here.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = FixturePaths.fixture("FakeTools").path + ":/usr/bin:/bin"
        environment["RELEASE_FAKE_XCODE"] = "15.4"
        let context = StepContext(stepID: "archive", kind: XcodeArchiveStep.kind, workingDirectory: TestPipelines.temporaryDirectory(), environment: environment)
        #expect(try await XcodeSelection.environment(for: "15", in: context, applications: nil) == [:])
        await #expect(
            throws: StepError.failed(
                "Xcode 26.2 (xcode_version) is not the Xcode here: xcodebuild -version says Xcode 15.4 (15F31d), and no other is installed; run on a runner image that has Xcode 26.2, or install it (xcodes install 26.2)"
            )
        ) {
            _ = try await XcodeSelection.environment(for: "26.2", in: context, applications: nil)
        }
    }
}
