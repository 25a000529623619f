import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

/// A choice for the sample options.
private enum SampleMode: String, OptionChoice {
    case all, each
}

/// One option of each shape: required, defaulted, optional, choice, renamed.
private struct SampleOptions: StepOptions, Equatable {
    @StepOption(.path, help: "required") var archivePath: String
    @StepOption(help: "defaulted") var level: Int = 6
    @StepOption(.glob, help: "optional") var exclude: [String]?
    @StepOption(help: "a choice") var mode: SampleMode = .all
    @StepOption(name: "cwd", help: "an irregular key") var directory: String?
}

private func decodeSample(_ json: String, mode: OptionsDecoder.Mode = .resolved) throws -> OptionsDecoder.Outcome<SampleOptions> {
    try OptionsDecoder(mode: mode).decode(SampleOptions.self, from: JSONParser.parse(json), at: .root)
}

@Suite struct StepOptionsTests {
    @Test(arguments: [
        ("archivePath", "archive_path"), ("bundleID", "bundle_id"), ("moveIntoArchive", "move_into_archive"),
        ("URLPath", "url_path"), ("sha256", "sha256"), ("level", "level"), ("expectStatus", "expect_status"),
    ])
    func keysAreSnakeCasePropertyNames(property: String, key: String) {
        #expect(snakeCase(property) == key)
    }

    @Test func documentationComesFromTheDeclarations() {
        let options = SampleOptions.optionDocumentation
        #expect(options.map(\.name) == ["archive_path", "level", "exclude", "mode", "cwd"])
        #expect(options.map(\.type) == ["path", "number", "[glob]", "all | each", "string"])
        #expect(options.map(\.required) == [true, false, false, false, false])
        #expect(options.map(\.defaultValue) == [nil, "6", nil, "\"all\"", nil])
        #expect(options.map(\.values) == [nil, nil, nil, ["all", "each"], nil])
        #expect(options.map(\.description) == ["required", "defaulted", "optional", "a choice", "an irregular key"])
    }

    @Test func absentOptionsTakeTheirDeclaredDefaults() throws {
        let outcome = try decodeSample(#"{"archive_path": "A.xcarchive"}"#)
        #expect(outcome.value.archivePath == "A.xcarchive")
        #expect(outcome.value.level == 6)
        #expect(outcome.value.exclude == nil)
        #expect(outcome.value.mode == .all)
        #expect(outcome.value.directory == nil)
        #expect(outcome.requestedKeys == ["archive_path", "level", "exclude", "mode", "cwd"])
    }

    @Test func presentOptionsAreDecodedUnderTheirKeys() throws {
        let value = try decodeSample(#"{"archive_path": "A", "level": "3", "exclude": ["*.txt"], "mode": "each", "cwd": "build"}"#).value
        #expect(value.level == 3)
        #expect(value.exclude == ["*.txt"])
        #expect(value.mode == .each)
        #expect(value.directory == "build")
    }

    @Test func theSwiftNameIsNotAKey() throws {
        let outcome = try decodeSample(#"{"archive_path": "A", "archivePath": "B", "directory": "x"}"#)
        #expect(outcome.unknownKeys.map(\.key) == ["archivePath", "directory"])
        #expect(outcome.unknownKeys.first?.known == ["archive_path", "cwd", "exclude", "level", "mode"])
    }

    @Test func aMissingRequiredOptionIsReportedOnItsObject() {
        #expect(
            throws: OptionsDecoder.Failure(
                path: .root, location: SourceLocation(line: 1, column: 1),
                message: "missing required option 'archive_path'")
        ) {
            try decodeSample(#"{"level": 3}"#)
        }
    }

    @Test func aChoiceRejectsOtherWordsWhereTheyAreWritten() {
        #expect(
            throws: OptionsDecoder.Failure(
                path: JSONPath.root.appending("mode"), location: SourceLocation(line: 2, column: 10),
                message: "'some' is not one of all, each")
        ) {
            try decodeSample(
                """
                {"archive_path": "A",
                 "mode": "some"}
                """)
        }
    }

    @Test func duringValidationAReferenceStandsForAnyValue() throws {
        let value = try decodeSample(#"{"archive_path": "${steps.a.outputs.path}", "level": "${level}", "mode": "${mode}"}"#, mode: .validation).value
        #expect(value.archivePath == "${steps.a.outputs.path}")
        #expect(value.mode == .all)
        // The whole object unknown: a required option cannot be checked yet.
        #expect {
            try decodeSample(#""${options}""#, mode: .validation)
        } throws: { ($0 as? OptionsDecoder.Failure)?.isPending == true }
    }

    @Test func optionsBuiltInCodeKeepTheirDefaults() {
        let options = ArchiveZipStep.Options.with {
            $0.source = "a"; $0.output = "a.zip"
        }
        #expect(options.level == 6)
        #expect(options.deterministic == false)
        #expect(
            options
                == ArchiveZipStep.Options.with {
                    $0.source = "a"; $0.output = "a.zip"; $0.level = 6
                })
        #expect(
            options
                != ArchiveZipStep.Options.with {
                    $0.source = "a"; $0.output = "a.zip"; $0.level = 0
                })
    }

    @Test func aStepWithoutOptionsRejectsEveryKey() {
        #expect(
            TestPipelines.problems(#"{"version": 1, "steps": [{"id": "a", "uses": "noop", "with": {"mesage": "hi"}}]}"#)
                == ["test.json:1:63: error: $.steps[0].with.mesage: step 'a': unknown option 'mesage' for noop"])
    }

    @Test func releaseStepsShowsDefaultsAndAllowedValues() throws {
        let registry = try StepRegistry.builtIn
        let text = StepCatalog.text(registry)
        #expect(text.contains("\n    level              number (from 0 to 9, default 6): deflate level\n"))
        #expect(text.contains("\n    mode               all | each (default \"all\"): 'all': one zip with every dSYM; 'each': one zip per dSYM\n"))
        #expect(text.contains("\n    output             path (not empty, required): mode 'all'"))
        let kinds = StepCatalog.json(registry)
        let dsym = try #require(kinds.first { $0["kind"] as? String == "dsym.package" })
        let options = try #require(dsym["options"] as? [[String: Any]])
        let mode = try #require(options.first { $0["name"] as? String == "mode" })
        #expect(mode["values"] as? [String] == ["all", "each"])
        #expect(mode["default"] as? String == "all")
        #expect(options.first { $0["name"] as? String == "level" }?["default"] as? Int == 6)
        #expect(options.first { $0["name"] as? String == "archive" }?["default"] == nil)
    }
}
