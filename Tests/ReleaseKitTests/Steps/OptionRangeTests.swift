import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Every number option has a range, declared with it, checked while decoding (so at `validate`) and shown by
/// `release steps` and `release schema`.
@Suite struct OptionRangeTests {
    @Test func everyNumberOptionOfEveryStepKindDeclaresARange() throws {
        var numbers = 0
        for kind in try StepRegistry.builtIn.kinds {
            for option in kind.documentation.options where option.type.contains("number") {
                numbers += 1
                #expect(option.minimum != nil && option.maximum != nil, "\(kind.kind): option '\(option.name)' has no range")
            }
        }
        #expect(numbers >= 14)
    }

    /// Values near `Double.greatestFiniteMagnitude` used to pass decoding and trap converting to `Duration` or `Int`.
    @Test func hugeNumbersAreValidationErrorsWithTheirLine() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "variables": {"n": "4"}, "steps": [
              {"id": "up", "uses": "appstore.upload", "with": {"ipa": "a.ipa", "key_id": "K", "issuer_id": "I", "key": "k",
                "poll_interval": 1.7976931348623157e308, "wait_timeout": "inf", "concurrency": "${n}"}},
              {"id": "post", "uses": "http.upload", "with": {"url": "https://example.com", "file": "a",
                "stall_timeout": 9223372036854775807, "expect_status": [200, 700]}},
              {"id": "tf", "uses": "testflight.distribute", "with": {"bundle_id": "b", "version": "1", "build": "1", "key_id": "K",
                "issuer_id": "I", "key": "k", "poll_interval": -1, "wait_timeout": 1e999}}
            ]}
            """)
        #expect(
            problems == [
                "test.json:3:22: error: $.steps[0].with.poll_interval: step 'up' (appstore.upload): 'poll_interval' must be from 0 to 3600, found 1.7976931348623157e308",
                "test.json:3:62: error: $.steps[0].with.wait_timeout: step 'up' (appstore.upload): expected a finite number, found 'inf'",
                "test.json:5:22: error: $.steps[1].with.stall_timeout: step 'post' (http.upload): 'stall_timeout' must be from 1 to 86400, found 9223372036854775807",
                "test.json:5:66: error: $.steps[1].with.expect_status[1]: step 'post' (http.upload): 'expect_status' must be from 100 to 599, found 700",
                "test.json:7:52: error: $.steps[2].with.poll_interval: step 'tf' (testflight.distribute): 'poll_interval' must be from 0 to 3600, found -1",
                "test.json:7:72: error: $.steps[2].with.wait_timeout: step 'tf' (testflight.distribute): expected a finite number, found 1e999",
            ])
    }

    /// A `${...}` is checked once its value is known: at run time, with the same message.
    @Test func anInterpolatedNumberIsCheckedWhenItIsKnown() throws {
        let node = try JSONParser.parse(#"{"source": "a", "output": "a.zip", "level": "${level}"}"#)
        _ = try OptionsDecoder(mode: .validation).decode(ArchiveZipStep.Options.self, from: node, at: .root)
        let resolved = try JSONParser.parse(#"{"source": "a", "output": "a.zip", "level": "99"}"#)
        #expect(
            throws: OptionsDecoder.Failure(
                path: JSONPath.root.appending("level"), location: SourceLocation(line: 1, column: 45),
                message: "'level' must be from 0 to 9, found '99'")
        ) {
            try OptionsDecoder(mode: .resolved).decode(ArchiveZipStep.Options.self, from: resolved, at: .root)
        }
    }

    /// Durations computed from numbers within their ranges stay printable: 100 retries of 3600 s doubled each time
    /// reported a 10^33-second wait, and formatting a wait past Int's range trapped.
    @Test func durationsFromRangedNumbersNeverTrap() {
        #expect(Engine.retryDelay(1, after: 1) == 1)
        #expect(Engine.retryDelay(1, after: 3) == 4)
        #expect(Engine.retryDelay(3600, after: 100) == 300)
        #expect(Engine.retryDelay(0.5, after: Int.max) == 300)
        #expect(DurationFormat.string(seconds: 1e19).hasSuffix("h46m"))
        #expect(DurationFormat.string(seconds: 7322) == "2h02m")
        #expect(DurationFormat.string(seconds: 185) == "3m05s")
    }

    @Test func stepsAndSchemaShowTheRange() throws {
        let text = StepCatalog.text(try StepRegistry.builtIn)
        #expect(text.contains("    concurrency     number (from 1 to 16, default 4): parts sent at once\n"))
        let json = StepCatalog.json(try StepRegistry.builtIn)
        let upload = try #require(json.first { $0["kind"] as? String == "appstore.upload" })
        let options = try #require(upload["options"] as? [[String: Any]])
        let interval = try #require(options.first { $0["name"] as? String == "poll_interval" })
        #expect(interval["minimum"] as? Int64 == 0)
        #expect(interval["maximum"] as? Int64 == 3600)
        let schema = PipelineSchema.bounded(PipelineSchema.type("[number]"), minimum: 100, maximum: 599)
        let items = try #require(((schema["anyOf"] as? [[String: Any]])?.first)?["items"] as? [String: Any])
        let number = try #require((items["anyOf"] as? [[String: Any]])?.first)
        #expect(number["type"] as? String == "number")
        #expect(number["minimum"] as? Int64 == 100)
        #expect(number["maximum"] as? Int64 == 599)
    }
}
