import Foundation
import Testing
@testable import ReleaseKit

/// What Tab completes for `release run`: pipeline names, then the named pipeline's profiles and step ids.
@Suite struct PipelineCompletionTests {
    static func folder() throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/Pipelines", withIntermediateDirectories: true)
        try #"{"version": 1, "profiles": {"adhoc": {}, "appstore": {}}, "steps": [{"id": "bump", "uses": "noop"}, {"id": "zip", "uses": "noop"}]}"#
            .write(toFile: directory + "/Pipelines/release.json", atomically: true, encoding: .utf8)
        try #"{"version": 1, "profiles": {"nightly": {}}, "steps": [{"id": "build", "uses": "noop"}]}"#
            .write(toFile: directory + "/Pipelines/nightly.json", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func completesPipelineNamesProfilesAndStepIDs() throws {
        let directory = try Self.folder()
        #expect(PipelineCompletion.pipelineNames(in: directory) == ["nightly", "release"])
        #expect(PipelineCompletion.pipelineNames(in: directory, prefix: "re") == ["release"])
        #expect(PipelineCompletion.profiles(words: ["release", "run", "--profile"], in: directory, prefix: "a") == ["adhoc", "appstore"])
        #expect(PipelineCompletion.profiles(words: ["release", "run", "--jobs", "2", "nightly", "--profile"], in: directory) == ["nightly"])
        #expect(PipelineCompletion.stepIDs(words: ["release", "run", "--only"], in: directory) == ["bump", "zip"])
        #expect(PipelineCompletion.stepIDs(words: ["release", "run", "--only"], in: directory + "/nowhere").isEmpty)
    }

    @Test func typesBecomeSchemas() throws {
        let list = PipelineSchema.type("[path]")
        #expect((list["anyOf"] as? [[String: Any]])?.first?["type"] as? String == "array")
        let map = PipelineSchema.type("{string: string}")
        #expect(map["type"] as? String == "object")
        let either = PipelineSchema.type("[string] | string")
        #expect((either["anyOf"] as? [Any])?.count == 2)
    }
}
