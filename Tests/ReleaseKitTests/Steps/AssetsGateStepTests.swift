import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps

@Suite struct AssetsGateStepTests {
    static func files() throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("zip", "build/App-3.0.0-4321.xcarchive.zip", in: directory)
        try GatePipelines.write("dsym!", "build/App.app.dSYM.zip", in: directory)
        try GatePipelines.write("ipa", "build/ipa/App.ipa", in: directory)
        return directory
    }

    @Test func acceptsPresentSmallUniquelyNamedFiles() async throws {
        let directory = try Self.files()
        let result = try await GatePipelines.runGate("gate.assets", ["files": ["build/*.zip", "build/ipa/App.ipa"], "max_count": 3], directory: directory)
        #expect(result.statuses == ["gate=ok"])
        #expect(
            result.step("gate")?.outputs == [
                "count": .number(3), "total_size": .number(11),
                "files": .list([.path(directory + "/build/App-3.0.0-4321.xcarchive.zip"), .path(directory + "/build/App.app.dSYM.zip"), .path(directory + "/build/ipa/App.ipa")]),
            ])
    }

    @Test func rejectsMissingFilesAndGlobsMatchingNothing() async throws {
        let directory = try Self.files()
        try FileManager.default.createDirectory(atPath: directory + "/build/Demo.xcarchive", withIntermediateDirectories: true)
        let result = try await GatePipelines.runGate("gate.assets", ["files": ["build/*.tar.gz", "build/Demo.xcarchive"]], directory: directory)
        #expect(result.statuses == ["gate=rejected"])
        #expect(
            result.step("gate")?.message == """
                - 'build/*.tar.gz' matches no file
                - '\(directory)/build/Demo.xcarchive' is a folder, not a file (zip it first)
                """)
        // A literal path that does not exist stops the run in preflight, before anything runs.
        let missing = try await GatePipelines.runGate("gate.assets", ["files": ["build/missing.zip"]], directory: directory)
        #expect(missing.step("gate")?.message == "option 'files': no such file or directory '\(directory)/build/missing.zip'")
    }

    @Test func rejectsFilesOverTheSizeLimit() async throws {
        let directory = try Self.files()
        let result = try await GatePipelines.runGate("gate.assets", ["files": "build/*.zip", "max_size": 4], directory: directory)
        #expect(result.step("gate")?.message == "'\(directory)/build/App.app.dSYM.zip' is 5 bytes (5 B), more than the limit of 4 bytes (4 B)")
        #expect(AssetsGateStep.defaultMaxSize == 2_147_483_648)
    }

    @Test func rejectsDuplicateNamesAndTooManyFiles() async throws {
        let directory = try Self.files()
        try GatePipelines.write("other ipa", "build/App.ipa", in: directory)
        let result = try await GatePipelines.runGate("gate.assets", ["files": ["build/*", "build/ipa/App.ipa"], "max_count": 3], directory: directory)
        #expect(
            result.step("gate")?.message == """
                - 2 files have the name 'App.ipa': '\(directory)/build/App.ipa', '\(directory)/build/ipa/App.ipa'; asset names must be unique
                - 4 files, more than max_count 3
                """)
    }

    @Test func takesListOutputsOfOtherSteps() async throws {
        let directory = try Self.files()
        let text = GatePipelines.text([
            ["id": "first", "uses": "gate.assets", "with": ["files": "build/*.zip"]],
            ["id": "again", "uses": "gate.assets", "gate": true, "with": ["files": ["${steps.first.outputs.files}", "build/ipa/App.ipa"], "max_count": 2]],
        ])
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory })
        #expect(result.statuses == ["first=ok", "again=rejected"])
        #expect(result.step("again")?.message == "3 files, more than max_count 2")
    }

    @Test func rejectsBadOptions() {
        #expect(throws: StepError.invalidOption("max_size", "'0' must be from 1 to 1099511627776")) {
            try AssetsGateStep(
                options: .with {
                    $0.files = PathListOption(["a"]); $0.maxSize = 0
                })
        }
        #expect(throws: StepError.invalidOption("files", "must list at least one file")) { try AssetsGateStep(options: .with { $0.files = PathListOption([]) }) }
    }
}
