import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSupport

/// The gates together in one pipeline, as a release runs them.
@Suite struct GatePipelineTests {
    @Test func everyGateReportsAndAFailedGateBlocksPackagingButNotCleanup() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("IPA/expired.ipa").path, toPath: directory + "/Demo.ipa")
        let text = GatePipelines.text([
            ["id": "check-ipa", "uses": "gate.ipa", "gate": true, "with": ["ipa": "Demo.ipa", "channel": "app-store", "version": "3.0.1"]],
            ["id": "check-assets", "uses": "gate.assets", "gate": true, "with": ["files": ["Demo.ipa"]]],
            [
                "id": "validate", "uses": "gate.command", "gate": true,
                "with": ["run": ["sh", "-c", "echo 'ERROR ITMS-90034: Missing or invalid signature'"], "fail_on": ["ERROR ITMS-[0-9]+"]],
            ],
            ["id": "itmsp", "uses": "itmsp.package", "needs": ["check-ipa", "check-assets", "validate"], "with": ["ipa": "Demo.ipa", "apple_id": "1234567890"]],
            ["id": "sums", "uses": "checksum", "with": ["files": ["${steps.itmsp.outputs.metadata}", "Demo.ipa"]]],
            ["id": "cleanup", "uses": "shell", "always": true, "needs": ["sums"], "with": ["run": ["touch", "cleaned"]]],
        ])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["check-ipa=rejected", "check-assets=ok", "validate=rejected", "itmsp=blocked", "sums=blocked", "cleanup=ok"])
        #expect(result.exitCode == 2)
        #expect(
            result.step("check-ipa")?.message
                == "'\(directory)/Demo.ipa': Payload/Demo.app/embedded.mobileprovision (profile 'Demo App Store 2013') expired on 2014-01-01T00:00:00Z (now 2014-10-22T06:01:18Z)")
        let command = ShellQuoting.commandLine(["sh", "-c", "echo 'ERROR ITMS-90034: Missing or invalid signature'"])
        #expect(result.step("validate")?.message == "'\(command)' standard output line 1 matches fail_on 'ERROR ITMS-[0-9]+': 'ERROR ITMS-90034: Missing or invalid signature'")
        #expect(!FileManager.default.fileExists(atPath: directory + "/Demo.itmsp"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cleaned"))
    }

    @Test func aPassingReleasePackagesAndChecksums() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("IPA/appstore.ipa").path, toPath: directory + "/Demo.ipa")
        let text = GatePipelines.text([
            ["id": "check-ipa", "uses": "gate.ipa", "gate": true, "with": ["ipa": "Demo.ipa", "channel": "app-store", "version": "3.0.1", "build": "4322"]],
            ["id": "itmsp", "uses": "itmsp.package", "needs": ["check-ipa"], "with": ["ipa": "Demo.ipa", "apple_id": "1234567890", "output": "upload/Demo.itmsp"]],
            ["id": "sums", "uses": "checksum", "with": ["files": ["${steps.itmsp.outputs.metadata}", "Demo.ipa"], "output": "upload/SHA256SUMS"]],
        ])
        let (planned, _) = try await TestPipelines.run(
            text,
            configure: {
                $0.workingDirectory = directory; $0.dryRun = true
            })
        #expect(planned.statuses == ["check-ipa=ok", "itmsp=planned", "sums=planned"])
        #expect(!FileManager.default.fileExists(atPath: directory + "/upload"))
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["check-ipa=ok", "itmsp=ok", "sums=ok"])
        let oracle = try await GatePipelines.output(["shasum", "-a", "256", "Demo.ipa", "upload/Demo.itmsp/metadata.xml"], in: directory)
        let expected = oracle.split(separator: "\n").map { line in
            let hex = line.prefix(64)
            return "\(hex)  \(((String(line.dropFirst(66))) as NSString).lastPathComponent)\n"
        }.sorted { $0.dropFirst(66) < $1.dropFirst(66) }.joined()
        #expect(try String(contentsOfFile: directory + "/upload/SHA256SUMS", encoding: .utf8) == expected)
    }
}
