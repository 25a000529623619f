import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct ChecksumStepTests {
    @Test func writesWhatSha256sumPrints() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("archive bytes\n", "build/App-3.0.0-4321.xcarchive.zip", in: directory)
        try GatePipelines.write("dsym bytes\n", "build/App.app.dSYM.zip", in: directory)
        try GatePipelines.write("", "build/empty.txt", in: directory)
        try GatePipelines.write("ipa\n", "export/Demo.ipa", in: directory)
        let text = GatePipelines.text([
            ["id": "assets", "uses": "gate.assets", "gate": true, "with": ["files": "build/*.zip"]],
            ["id": "sums", "uses": "checksum", "with": ["files": ["export/Demo.ipa", "${steps.assets.outputs.files}", "build/empty.txt"], "output": "build/SHA256SUMS"]],
        ])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["assets=ok", "sums=ok"])
        let written = try String(contentsOfFile: directory + "/build/SHA256SUMS", encoding: .utf8)
        var oracle = try await GatePipelines.output(["shasum", "-a", "256", "App-3.0.0-4321.xcarchive.zip", "App.app.dSYM.zip", "empty.txt"], in: directory + "/build")
        oracle += try await GatePipelines.output(["shasum", "-a", "256", "Demo.ipa"], in: directory + "/export")
        let sortedOracle = oracle.split(separator: "\n").sorted { $0.dropFirst(66) < $1.dropFirst(66) }.map { $0 + "\n" }.joined()
        #expect(written == sortedOracle)
        #expect(written.hasSuffix("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt\n"))
        let step = try #require(result.step("sums"))
        #expect(step.outputs["path"] == .path(directory + "/build/SHA256SUMS"))
        #expect(step.outputs["sums"] == .list(written.split(separator: "\n").map { .string(String($0)) }))
        #expect(step.artifacts == [Artifact(path: directory + "/build/SHA256SUMS", size: Int64(written.utf8.count), sha256: FileDigest.sha256(of: Data(written.utf8)))])
        // shasum -a 256 -c (sha256sum -c on Linux reads the same format) agrees.
        try FileManager.default.copyItem(atPath: directory + "/export/Demo.ipa", toPath: directory + "/build/Demo.ipa")
        let check = try await GatePipelines.output(["shasum", "-a", "256", "-c", "SHA256SUMS"], in: directory + "/build")
        #expect(check.split(separator: "\n").allSatisfy { $0.hasSuffix(": OK") })
    }

    @Test func neverListsItsOwnOutputAndDefaultsToSHA256SUMS() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("a", "a.txt", in: directory)
        try GatePipelines.write("stale", "SHA256SUMS", in: directory)
        let result = try await GatePipelines.runGate("checksum", ["files": "*"], directory: directory)
        #expect(result.statuses == ["gate=ok"])
        #expect(try String(contentsOfFile: directory + "/SHA256SUMS", encoding: .utf8) == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  a.txt\n")
    }

    @Test func rejectsDuplicateNamesAndMissingFiles() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("a", "one/App.ipa", in: directory)
        try GatePipelines.write("b", "two/App.ipa", in: directory)
        let text = GatePipelines.text([["id": "sums", "uses": "checksum", "with": ["files": ["one/App.ipa", "two/App.ipa"]]]])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["sums=failed"])
        #expect(result.step("sums")?.message == "option 'files': '\(directory)/one/App.ipa' and '\(directory)/two/App.ipa' have the same name 'App.ipa'")
        let missing = GatePipelines.text([["id": "sums", "uses": "checksum", "with": ["files": ["one/missing.zip", "*.tar"]]]])
        let (failed, _) = try await TestPipelines.run(missing, configure: { $0.workingDirectory = directory })
        #expect(failed.step("sums")?.message == "option 'files': no such file or directory '\(directory)/one/missing.zip'")
        #expect(!FileManager.default.fileExists(atPath: directory + "/SHA256SUMS"))
    }

    @Test func dryRunPlansTheFileWithoutWritingIt() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("a", "b.txt", in: directory)
        try GatePipelines.write("a", "a.txt", in: directory)
        let text = GatePipelines.text([["id": "sums", "uses": "checksum", "with": ["files": ["b.txt", "a.txt"]]]])
        let (result, _) = try await TestPipelines.run(
            text,
            configure: {
                $0.workingDirectory = directory; $0.dryRun = true
            })
        #expect(result.step("sums")?.effects == [.writeFile(path: directory + "/SHA256SUMS", diff: nil, detail: "SHA-256 of 2 files: a.txt, b.txt")])
        #expect(!FileManager.default.fileExists(atPath: directory + "/SHA256SUMS"))
    }
}
