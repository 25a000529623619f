import Foundation
import Testing

@testable import ReleasePipeline

/// Every file in Fixtures/Pipelines/invalid has its exact expected messages beside it (NAME.expected).
/// Re-record with RECORD_SNAPSHOTS=1 after an intended change of wording.
@Suite struct InvalidPipelineTests {
    static let folder = FixturePaths.fixture("Pipelines/invalid")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test func everyErrorKindHasAFixture() {
        let expected = [
            "malformed-json", "wrong-types", "unknown-keys", "unknown-step-kind", "duplicate-id", "missing-need",
            "cycle", "unknown-interpolation", "output-not-upstream", "unsupported-version", "bad-conditions-profiles", "bad-options",
            "untrusted-values",
        ]
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
        let problems = TestPipelines.problems(
            """
            {"version": 1,
             "steps": [
               {"id": "b", "uses": "noop", "needs": ["zz"]},
               {"id": "a", "uses": "nop"}
             ]}
            """, file: "Pipelines/x.json")
        #expect(
            problems == [
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

    // MARK: Errors that point at the cause, once (issue 23 item 6)

    /// A misspelt option that replaces a required one is one error, the unknown key with its did-you-mean: whether the
    /// options decoder misses it (`scheme`) or the step's `init` does (`project` or `workspace`).
    @Test func aMisspeltRequiredOptionIsOneErrorWithItsDidYouMean() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "steps": [
              {"id": "archive", "uses": "xcode.archive",
               "with": {"project": "Demo.xcodeproj", "schme": "App", "archive_path": "build/Demo.xcarchive"}},
              {"id": "archive2", "uses": "xcode.archive",
               "with": {"projct": "Demo.xcodeproj", "scheme": "App", "archive_path": "build/Demo.xcarchive"}}
            ]}
            """)
        #expect(
            problems == [
                "test.json:3:42: error: $.steps[0].with.schme: step 'archive': unknown option 'schme' for xcode.archive (did you mean 'scheme'?)",
                "test.json:5:13: error: $.steps[1].with.projct: step 'archive2': unknown option 'projct' for xcode.archive (did you mean 'project'?)",
            ])
    }

    /// A `run` string in a `shell` step without `"shell": true` is found by `validate`, with its line, also when the
    /// string holds `${…}` (which used to put the check off until the run reached the step).
    @Test func aShellRunStringWithoutShellTrueIsAValidationError() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "variables": {"target": "all"}, "steps": [
              {"id": "build", "uses": "shell", "with": {"run": "make ${target}"}},
              {"id": "plain", "uses": "shell", "with": {"run": "make all", "shell": false}},
              {"id": "fine", "uses": "shell", "with": {"run": "make ${target}", "shell": true}}
            ]}
            """)
        let message = #"'run' is a string; give an argv array such as ["make", "test"], or set "shell": true to run it through /bin/sh"#
        #expect(
            problems == [
                "test.json:2:52: error: $.steps[0].with.run: step 'build' (shell): " + message,
                "test.json:3:52: error: $.steps[1].with.run: step 'plain' (shell): " + message,
            ])
    }

    /// A typo in a variable used in many places is one error, at its first use, with a note of the other lines.
    @Test func aMistypedVariableUsedInManyPlacesIsOneErrorWithANote() {
        let steps = (1...20).map { #"    {"id": "s\#($0)", "uses": "print", "with": {"message": "${bulid_dir}/\#($0)"}}"# }
        let text = "{\"version\": 1, \"variables\": {\"build_dir\": \"build\"}, \"steps\": [\n" + steps.joined(separator: ",\n") + "\n]}"
        let problems = TestPipelines.problems(text)
        let lines = (3...21).map(String.init).joined(separator: ", ")
        #expect(
            problems == [
                "test.json:2:55: error: $.steps[0].with.message: unknown variable '${bulid_dir}' (did you mean 'build_dir'?); define it in 'variables' or pass --var bulid_dir=VALUE; also used in 19 other places (lines \(lines))"
            ])
    }
}
