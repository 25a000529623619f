import Foundation
import Testing

@testable import ReleasePipeline

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

    /// Issue 22 item 8: a profile name is a word like a step id, so `release run --profile <TAB>` never offers code.
    @Test func aProfileNameThatIsNotAWordIsAValidationError() {
        let problems = TestPipelines.problems(#"{"version": 1, "profiles": {"$(touch x)": {}, "Release": {}, "ad-hoc_2": {}}, "steps": [{"id": "a", "uses": "noop"}]}"#)
        #expect(
            problems == [
                #"test.json:1:29: error: $.profiles["$(touch x)"]: invalid profile name '$(touch x)': profile names match [a-z0-9][a-z0-9-_]*"#,
                "test.json:1:47: error: $.profiles.Release: invalid profile name 'Release': profile names match [a-z0-9][a-z0-9-_]*",
            ])
    }

    /// Every candidate is written so the asking shell reads it back as that word: bash quotes it (its `compgen -W`
    /// expands words), zsh escapes `_describe`'s `:`, and a candidate with a line break is left out.
    @Test func candidatesAreEscapedForTheAskingShell() {
        let names = ["adhoc", "$(touch x)", "it's", "a:b", "two\nlines", "back\\slash"]
        #expect(PipelineCompletion.escaped(names, for: "bash") == ["adhoc", "'$(touch x)'", #"'it'\''s'"#, "a:b", #"'back\slash'"#])
        #expect(PipelineCompletion.escaped(names, for: "zsh") == ["adhoc", "$(touch x)", "it's", #"a\:b"#, #"back\\slash"#])
        #expect(PipelineCompletion.escaped(names, for: "fish") == ["adhoc", "$(touch x)", "it's", "a:b", #"back\slash"#])
    }

    /// The real bash, fed the candidates as the generated completion script feeds them
    /// (`IFS=$'\n' compgen -W "$(release ---completion …)" -- "$cur"`): each comes back as written, nothing runs.
    @Test func bashCompletesHostileNamesAsText() throws {
        let directory = TestPipelines.temporaryDirectory()
        let names = ["$(touch made-by-substitution)", "`touch made-by-backquotes`", "a b", "it's", "$HOME"]
        try PipelineCompletion.escaped(names, for: "bash").joined(separator: "\n").write(toFile: directory + "/candidates", atomically: true, encoding: .utf8)
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", #"IFS=$'\n' compgen -W "$(cat candidates)" -- "$1""#, "bash", ""]
        bash.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        bash.standardOutput = output
        try bash.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(text.split(separator: "\n").map(String.init) == names)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["candidates"])
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
