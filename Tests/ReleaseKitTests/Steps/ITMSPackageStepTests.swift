import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct ITMSPackageStepTests {
    @Test func buildsThePackageWithTheIpaAndItsMetadata() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/build", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("IPA/adhoc.ipa").path, toPath: directory + "/build/Demo.ipa")
        let text = GatePipelines.text([["id": "itmsp", "uses": "itmsp.package", "with": ["ipa": "build/Demo.ipa", "apple_id": "1234567890"]]])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["itmsp=ok"])

        let package = directory + "/build/Demo.itmsp"
        #expect(try FileManager.default.contentsOfDirectory(atPath: package).sorted() == ["Demo.ipa", "metadata.xml"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: package + "/Demo.ipa")) == Data(contentsOf: URL(fileURLWithPath: directory + "/build/Demo.ipa")))
        let md5 = try await GatePipelines.md5(of: "Demo.ipa", in: directory + "/build")
        let size = try #require((try FileManager.default.attributesOfItem(atPath: directory + "/build/Demo.ipa")[.size] as? NSNumber)?.intValue)
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package version="software5.4" xmlns="http://apple.com/itunes/importer">
                <software_assets apple_id="1234567890" app_platform="ios">
                    <asset type="bundle">
                        <data_file>
                            <size>\(size)</size>
                            <file_name>Demo.ipa</file_name>
                            <checksum type="md5">\(md5)</checksum>
                        </data_file>
                    </asset>
                </software_assets>
            </package>

            """
        #expect(try String(contentsOfFile: package + "/metadata.xml", encoding: .utf8) == expected)
        let step = try #require(result.step("itmsp"))
        #expect(step.outputs == ["path": .path(package), "metadata": .path(package + "/metadata.xml"), "md5": .string(md5), "size": .number(Double(size))])
        #expect(step.artifacts.map(\.path) == [package + "/Demo.ipa", package + "/metadata.xml"])
        #expect(step.artifacts.last?.sha256 == FileDigest.sha256(of: Data(expected.utf8)))
        // No temporary folder is left beside the package.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/build").sorted() == ["Demo.ipa", "Demo.itmsp"])
    }

    @Test func replacesAnExistingPackageAndPlansTheFiles() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("IPA/appstore.ipa").path, toPath: directory + "/App.ipa")
        try GatePipelines.write("stale", "out/App.itmsp/old.txt", in: directory)
        let step: [String: Any] = ["id": "itmsp", "uses": "itmsp.package", "with": ["ipa": "App.ipa", "apple_id": "42", "output": "out/App.itmsp", "platform": "ios"]]
        let (planned, _) = try await TestPipelines.run(
            GatePipelines.text([step]),
            configure: {
                $0.workingDirectory = directory; $0.dryRun = true
            })
        #expect(
            planned.step("itmsp")?.effects == [
                .delete(path: directory + "/out/App.itmsp"),
                .writeFile(path: directory + "/out/App.itmsp/App.ipa", diff: nil, detail: "copy of '\(directory)/App.ipa'"),
                .writeFile(path: directory + "/out/App.itmsp/metadata.xml", diff: nil, detail: "apple_id 42, file_name App.ipa, size and MD5 of the ipa"),
            ])
        #expect(FileManager.default.fileExists(atPath: directory + "/out/App.itmsp/old.txt"))
        let (result, _) = try await TestPipelines.run(GatePipelines.text([step]), configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["itmsp=ok"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/out/App.itmsp").sorted() == ["App.ipa", "metadata.xml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/out") == ["App.itmsp"])
    }

    @Test func rejectsBadOptions() {
        #expect(throws: StepError.invalidOption("apple_id", "'com.example.demo' is not an Apple ID (the app's numeric id in App Store Connect)")) {
            try ITMSPackageStep(
                options: .with {
                    $0.ipa = "a.ipa"; $0.appleID = "com.example.demo"
                })
        }
        #expect(throws: StepError.invalidOption("output", "'build/App' must name a folder ending in .itmsp")) {
            try ITMSPackageStep(
                options: .with {
                    $0.ipa = "a.ipa"; $0.appleID = "1"; $0.output = "build/App"
                })
        }
        #expect(ITMSPackageStep.escape("A&B <\"x\">") == "A&amp;B &lt;&quot;x&quot;&gt;")
    }
}
