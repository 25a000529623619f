import Foundation
import ReleasePipeline
import ReleaseSteps
import Testing

/// `release schema` checked by an independent validator (check-jsonschema, installed by scripts/setup.sh): every
/// shipped pipeline passes, and pipelines the loader rejects for their shape are rejected by the schema too.
@Suite struct SchemaCommandTests {
    static let validator: String? = ReleaseBinary.tool("check-jsonschema")

    /// Writes the schema into a new folder and returns its path.
    static func schema() throws -> String {
        let directory = ReleaseBinary.temporaryDirectory()
        let outcome = try ReleaseBinary.run(["schema"], in: directory)
        #expect(outcome.status == 0)
        let path = directory + "/release.schema.json"
        try outcome.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func check(_ schema: String, _ files: [String]) throws -> ReleaseBinary.Outcome {
        let validator = try #require(validator, "check-jsonschema is not installed: run scripts/setup.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: validator)
        process.arguments = ["--schemafile", schema] + files
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ReleaseBinary.Outcome(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    static func files(_ folder: String) -> [String] {
        let path = ReleaseBinary.root.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            .map { path + "/" + $0 }
    }

    @Test func isDraft2020WithEveryStepKind() throws {
        let text = try String(contentsOfFile: try Self.schema(), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let definitions = try #require(object["$defs"] as? [String: Any])
        let zip = try #require(definitions["with:archive.zip"] as? [String: Any])
        #expect(zip["required"] as? [String] == ["source", "output"])
        let level = try #require((zip["properties"] as? [String: Any])?["level"] as? [String: Any])
        #expect(level["default"] as? Int == 6)
        #expect((level["description"] as? String)?.hasPrefix("deflate level") == true)
        // The declared range, on the number alternative (a `${...}` template stays allowed).
        let number = try #require((level["anyOf"] as? [[String: Any]])?.first)
        #expect(number["minimum"] as? Int == 0)
        #expect(number["maximum"] as? Int == 9)
    }

    @Test func everyShippedPipelinePasses() throws {
        let schema = try Self.schema()
        let files = Self.files("Pipelines") + Self.files("Fixtures/Pipelines/valid")
        #expect(files.count >= 10)
        let outcome = try Self.check(schema, files)
        #expect(outcome.status == 0, "\(outcome.stdout)")
    }

    @Test(arguments: [
        "bad-conditions-profiles", "bad-options", "duplicate-id", "hostile-names", "huge-version", "malformed-json",
        "unknown-keys", "unknown-step-kind", "unsupported-version", "wrong-types",
    ])
    func anInvalidShapeIsRejected(name: String) throws {
        let file = ReleaseBinary.root.appendingPathComponent("Fixtures/Pipelines/invalid/\(name).json").path
        let outcome = try Self.check(try Self.schema(), [file])
        #expect(outcome.status != 0, "\(name) passed the schema")
    }

    /// Every number key of the format (``PipelineKey/all``) at its bounds and just outside them: `release validate`
    /// and the independent validator take and refuse the same values.
    @Test func theLoaderAndTheSchemaAgreeOnEveryRange() throws {
        let schema = try Self.schema()
        let directory = ReleaseBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var checked = 0
        for key in PipelineKey.all {
            guard case .number(let whole, let range) = key.value else { continue }
            let values = [
                (range.minimum, true), (range.maximum, true),
                (whole ? range.minimum - 1 : range.minimum.nextDown, false), (whole ? range.maximum + 1 : range.maximum.nextUp, false),
            ]
            for (value, accepted) in values {
                let text = value.rounded() == value ? String(Int64(value)) : "\(value)"
                let member = "\"\(key.name)\": \(text)"
                let pipeline: String
                switch key.scope {
                case .pipeline: pipeline = #"{"version": 1, \#(member), "steps": [{"id": "a", "uses": "noop"}]}"#
                case .profile: pipeline = #"{"version": 1, "profiles": {"p": {\#(member)}}, "steps": [{"id": "a", "uses": "noop"}]}"#
                case .step: pipeline = #"{"version": 1, "steps": [{"id": "a", "uses": "noop", \#(member)}]}"#
                }
                let file = directory + "/\(key.name)-\(checked).json"
                try pipeline.write(toFile: file, atomically: true, encoding: .utf8)
                let validator = try Self.check(schema, [file])
                #expect((validator.status == 0) == accepted, "schema, \(member): \(validator.stdout)")
                let loader = try ReleaseBinary.run(["validate", file], in: directory)
                #expect(loader.status == (accepted ? 0 : 65), "validate, \(member): \(loader.stderr)")
                checked += 1
            }
        }
        #expect(checked == 12)
    }

    @Test func aMisspeltOptionIsFlagged() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        let file = directory + "/p.json"
        try #"{"$schema": "x", "version": 1, "steps": [{"id": "zip", "uses": "archive.zip", "with": {"sorce": "a", "output": "b.zip"}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = try Self.check(try Self.schema(), [file])
        #expect(outcome.status != 0)
        #expect(outcome.stdout.contains("$.steps[0].with: Additional properties are not allowed ('sorce' was unexpected)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("$.steps[0].with: 'source' is a required property"), "\(outcome.stdout)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) throws {
        let outcome = try ReleaseBinary.run(["completion", shell], in: ReleaseBinary.temporaryDirectory())
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("release"))
        #expect(outcome.stdout.contains("schema") && outcome.stdout.contains("--only"))
        let bad = try ReleaseBinary.run(["completion", "powershell"], in: ReleaseBinary.temporaryDirectory())
        #expect(bad.status == 64)
    }

    /// Issue 22 item 8: Tab in the real bash, through the generated completion script and the real binary: a
    /// pipeline file named `$(touch pwned).json` in a cloned repository is completed as text and runs nothing.
    @Test func bashCompletionOffersAHostilePipelineNameAsText() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/Pipelines", withIntermediateDirectories: true)
        try #"{"version": 1, "steps": [{"id": "a", "uses": "noop"}]}"#.write(toFile: directory + "/Pipelines/$(touch pwned).json", atomically: true, encoding: .utf8)
        try #"{"version": 1, "profiles": {"adhoc": {}}, "steps": [{"id": "a", "uses": "noop"}]}"#.write(
            toFile: directory + "/Pipelines/release.json", atomically: true, encoding: .utf8)
        // What bash does on `release run <TAB>`: the function `complete -F` registered, with COMP_* set.
        let driver = """
            source <("$1" completion bash)
            COMP_WORDS=("$1" run "")
            COMP_CWORD=2
            COMP_LINE="$1 run "
            COMP_POINT=${#COMP_LINE}
            _release "$1" "" run
            printf '<%s>\\n' "${COMPREPLY[@]}"
            """
        // The generated script needs bash 4 or later: the one on PATH (macOS's /bin/bash is 3.2).
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bash.arguments = ["bash", "-c", driver, "bash", ReleaseBinary.path]
        bash.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        bash.standardOutput = output
        bash.standardError = FileHandle.nullDevice
        try bash.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(text == "<$(touch pwned)>\n<release>\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/pwned"))
    }
}
