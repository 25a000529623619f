import Foundation
import Testing
@testable import ReleaseKit

/// Every file in Fixtures/Pipelines/invalid has its exact expected messages beside it (NAME.expected).
/// Re-record with RECORD_SNAPSHOTS=1 after an intended change of wording.
@Suite struct InvalidPipelineTests {
    static let folder = FixturePaths.fixture("Pipelines/invalid")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test func everyErrorKindHasAFixture() {
        let expected = ["malformed-json", "wrong-types", "unknown-keys", "unknown-step-kind", "duplicate-id", "missing-need",
                        "cycle", "unknown-interpolation", "output-not-upstream", "unsupported-version", "bad-conditions-profiles", "bad-options",
                        "untrusted-values"]
        #expect(Set(Self.names.map { String($0.dropLast(5)) }).isSuperset(of: expected))
    }

    @Test(arguments: names)
    func reportsEveryProblemWithItsExactMessage(name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let expectedPath = Self.folder.appendingPathComponent(String(name.dropLast(5)) + ".expected").path
        var actual = ""
        do {
            _ = try PipelineLoader().load(path: path, displayPath: name)
            Issue.record("\(name) loaded without errors")
            return
        } catch {
            actual = error.diagnostics.map(\.description).joined(separator: "\n") + "\n"
        }
        if FixturePaths.recording {
            try actual.write(toFile: expectedPath, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(actual == expected)
    }

    @Test func problemsAreInFileOrderAndEachNamesFileLineColumnAndPath() throws {
        let problems = TestPipelines.problems("""
        {"version": 1,
         "steps": [
           {"id": "b", "uses": "noop", "needs": ["zz"]},
           {"id": "a", "uses": "nop"}
         ]}
        """, file: "Pipelines/x.json")
        #expect(problems == [
            "Pipelines/x.json:3:42: error: $.steps[0].needs[0]: step 'b' needs 'zz', which is not a step",
            "Pipelines/x.json:4:24: error: $.steps[1].uses: step 'a': unknown step kind 'nop' (did you mean 'noop'?); run 'release steps' for the list",
        ])
    }

    @Test func unreadableFileIsAClearError() {
        #expect(throws: PipelineError.unreadable(path: "nope.json", reason: "no such file")) {
            try PipelineLoader().load(path: "/nonexistent/nope.json", displayPath: "nope.json")
        }
    }

    @Test func varNamesFromTheCommandLineCountAsDefined() throws {
        let text = #"{"version": 1, "steps": [{"id": "a", "uses": "print", "with": {"message": "${build}"}}]}"#
        #expect(TestPipelines.problems(text).count == 1)
        _ = try TestPipelines.load(text, variables: ["build"])
    }
}
