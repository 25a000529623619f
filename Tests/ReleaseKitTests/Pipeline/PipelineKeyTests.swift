import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

/// The pipeline format's own keys are declared once (``PipelineKey/all``): the loader, `release schema` and the key
/// tables of Pipelines/README.md must say the same thing about each of them.
@Suite struct PipelineKeyTests {
    /// A JSON value.
    enum Literal: Sendable {
        case bool(Bool)
        case text(String)
        case number(Double)
        case null

        var json: String {
            switch self {
            case .bool(let flag): return flag ? "true" : "false"
            case .text(let text): return "\"\(text)\""
            case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
            case .null: return "null"
            }
        }
    }

    /// A value for a key, and whether the key takes it.
    struct Sample: Sendable, CustomStringConvertible {
        var key: PipelineKey
        var value: Literal
        var accepted: Bool
        var json: String { value.json }
        var description: String { "\(key.scope.rawValue).\(key.name) = \(json)" }
    }

    /// For every key with a simple value: values at each bound (taken) and just outside it (refused), and values of
    /// the wrong type (refused).
    static let samples: [Sample] = PipelineKey.all.flatMap { key -> [Sample] in
        func sample(_ value: Literal, _ accepted: Bool) -> Sample { Sample(key: key, value: value, accepted: accepted) }
        switch key.value {
        case .boolean:
            return [
                sample(.bool(true), true), sample(.bool(false), true), sample(.number(1), false), sample(.text("true"), false),
                sample(.null, false),
            ]
        case .text(let nonEmpty):
            return [sample(.text("x"), true), sample(.text(""), !nonEmpty), sample(.number(1), false), sample(.bool(true), false)]
        case .version:
            return PipelineLoader.supportedVersions.map { sample(.number(Double($0)), true) }
                + [sample(.number(Double((PipelineLoader.supportedVersions.max() ?? 0) + 1)), false), sample(.text("1"), false)]
        case .number(let whole, let range):
            let below = whole ? range.minimum - 1 : range.minimum.nextDown
            let above = whole ? range.maximum + 1 : range.maximum.nextUp
            var samples = [
                sample(.number(range.minimum), true), sample(.number(range.maximum), true),
                sample(.number(below), false), sample(.number(above), false), sample(.text("1"), false), sample(.bool(true), false),
            ]
            if whole { samples.append(sample(.number(range.minimum + 0.5), false)) }
            return samples
        default:
            return []
        }
    }

    /// A pipeline with `sample` in its place, and the JSON path the loader names it by.
    static func pipeline(_ sample: Sample) -> (text: String, path: String) {
        let step = #"{"id": "a", "uses": "noop""#
        let name = sample.key.name
        switch sample.key.scope {
        case .pipeline where name == "version":
            return (#"{"version": \#(sample.json), "steps": [\#(step)}]}"#, "$.version")
        case .pipeline:
            return (#"{"version": 1, "\#(name)": \#(sample.json), "steps": [\#(step)}]}"#, JSONPath.root.appending(name).description)
        case .profile:
            return (
                #"{"version": 1, "profiles": {"p": {"\#(name)": \#(sample.json)}}, "steps": [\#(step)}]}"#,
                JSONPath.root.appending("profiles").appending("p").appending(name).description
            )
        case .step:
            return (
                #"{"version": 1, "steps": [\#(step), "\#(name)": \#(sample.json)}]}"#,
                JSONPath.root.appending("steps").appending(0).appending(name).description
            )
        }
    }

    /// The schema `release schema` gives the key's value.
    static func schema(of key: PipelineKey) throws -> [String: Any] {
        let root = PipelineSchema.object(registry: try StepRegistry.builtIn)
        let properties: Any?
        switch key.scope {
        case .pipeline:
            properties = root["properties"]
        case .profile:
            let profiles = (root["properties"] as? [String: Any])?["profiles"] as? [String: Any]
            properties = (profiles?["additionalProperties"] as? [String: Any])?["properties"]
        case .step:
            properties = ((root["$defs"] as? [String: Any])?["step"] as? [String: Any])?["properties"]
        }
        return try #require((properties as? [String: Any])?[key.name] as? [String: Any], "no schema for \(key.name)")
    }

    /// What a draft 2020-12 validator says of `value` against `schema`, for the keywords simple values use.
    static func schemaAccepts(_ schema: [String: Any], _ value: Literal) -> Bool {
        var number: Double?
        if case .number(let value) = value { number = value }
        if let type = schema["type"] as? String {
            switch type {
            case "boolean": guard case .bool = value else { return false }
            case "string": guard case .text = value else { return false }
            case "number": guard number != nil else { return false }
            case "integer": guard let number, number.rounded() == number else { return false }
            default: return false
            }
        }
        if let pattern = schema["pattern"] as? String, case .text(let text) = value, text.range(of: pattern, options: .regularExpression) == nil { return false }
        if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, let number, number < minimum { return false }
        if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, let number, number > maximum { return false }
        if let minimum = (schema["exclusiveMinimum"] as? NSNumber)?.doubleValue, let number, number <= minimum { return false }
        if let length = schema["minLength"] as? Int, case .text(let text) = value, text.count < length { return false }
        if let choices = schema["enum"] as? [Any] {
            guard let number, choices.contains(where: { ($0 as? NSNumber)?.doubleValue == number }) else { return false }
        }
        return true
    }

    @Test func theLoaderAcceptsExactlyTheKeysOfTheTable() {
        #expect(PipelineLoader.topLevelKeys == PipelineKey.keys(in: .pipeline).map(\.name))
        #expect(PipelineLoader.profileKeys == ["when", "default", "variables", "description"])
        #expect(
            PipelineLoader.stepKeys == [
                "id", "uses", "needs", "with", "when", "gate", "always", "retries", "retry_delay",
                "timeout", "continue_on_error", "skip_if", "runs_on", "description",
            ])
        for scope in PipelineKey.Scope.allCases {
            let names = PipelineKey.keys(in: scope).map(\.name)
            #expect(Set(names).count == names.count, "a key of \(scope) is declared twice")
        }
    }

    @Test func theSchemaHasExactlyTheKeysOfTheTable() throws {
        for key in PipelineKey.all {
            let schema = try Self.schema(of: key)
            #expect((schema["description"] as? String)?.hasPrefix(key.help) == true, "\(key.name)")
        }
        let root = PipelineSchema.object(registry: try StepRegistry.builtIn)
        #expect(Set(((root["properties"] as? [String: Any]) ?? [:]).keys) == Set(PipelineKey.keys(in: .pipeline).map(\.name)))
        #expect(root["required"] as? [String] == ["version", "steps"])
        let step = try #require((root["$defs"] as? [String: Any])?["step"] as? [String: Any])
        #expect(Set(((step["properties"] as? [String: Any]) ?? [:]).keys) == Set(PipelineKey.keys(in: .step).map(\.name)))
        #expect(step["required"] as? [String] == ["id", "uses"])
    }

    @Test func everyNumberKeyHasARange() {
        let numbers = PipelineKey.all.compactMap { key -> String? in
            guard case .number = key.value else { return nil }
            return key.name
        }
        #expect(numbers == ["retries", "retry_delay", "timeout"])
        #expect(Self.samples.filter { !$0.accepted }.count >= 40)
    }

    /// A value just outside each range (and one of the wrong type) is refused by the loader and by the schema; the
    /// bounds themselves are taken by both.
    @Test(arguments: samples)
    func theLoaderAndTheSchemaAgree(sample: Sample) throws {
        let (text, path) = Self.pipeline(sample)
        let problems = TestPipelines.problems(text)
        let mine = problems.filter { $0.contains(": error: \(path): ") }
        if sample.accepted {
            #expect(problems.isEmpty, "\(sample): \(problems)")
        } else {
            #expect(mine.count == 1, "\(sample): \(problems)")
        }
        #expect(Self.schemaAccepts(try Self.schema(of: sample.key), sample.value) == sample.accepted, "\(sample)")
    }

    /// `skip_if` is decided by step outputs; a value with none (a literal, a variable known before the run) belongs in
    /// `when`, and is refused with the key's path. The schema holds it to a step output too.
    @Test func skipIfMustUseAStepOutput() throws {
        let valid = #"{"version": 1, "steps": [{"id": "b", "uses": "version.read"}, {"id": "a", "uses": "noop", "skip_if": "${steps.b.outputs.version}"}]}"#
        #expect(TestPipelines.problems(valid).isEmpty)
        let cases = [
            (
                #""skip_if": "true""#,
                "$.steps[0].skip_if: step 'a': 'skip_if' must use a step output such as ${steps.bump.outputs.shipped}, found 'true' (facts known before the run go in 'when')"
            ),
            (
                #""skip_if": "${profile}""#,
                "$.steps[0].skip_if: step 'a': 'skip_if' must use a step output such as ${steps.bump.outputs.shipped}, found '${profile}' (facts known before the run go in 'when')"
            ),
            (#""skip_if": true"#, #"$.steps[0].skip_if: 'skip_if' must be a string such as "${steps.bump.outputs.shipped}", found a boolean true"#),
        ]
        for (member, message) in cases {
            let problems = TestPipelines.problems(#"{"version": 1, "steps": [{"id": "a", "uses": "noop", \#(member)}]}"#)
            #expect(problems.count == 1 && problems.first?.hasSuffix(": error: " + message) == true, "\(problems)")
        }
        let schema = try Self.schema(of: try #require(PipelineKey.key("skip_if", in: .step)))
        #expect(Self.schemaAccepts(schema, .text("${steps.bump.outputs.shipped}")))
        #expect(!Self.schemaAccepts(schema, .text("true")))
    }

    @Test func theMessagesNameTheDeclaredRange() {
        let cases = [
            (#""timeout": 0"#, "$.steps[0].timeout: 'timeout' must be from 0.001 to 604800, found 0"),
            (#""retries": 1.5"#, "$.steps[0].retries: 'retries' must be a whole number, found a number 1.5"),
            (#""retry_delay": 3601"#, "$.steps[0].retry_delay: 'retry_delay' must be from 0 to 3600, found 3601"),
            (#""description": 3"#, "$.steps[0].description: 'description' must be a string, found a number 3"),
        ]
        for (member, message) in cases {
            let problems = TestPipelines.problems(#"{"version": 1, "steps": [{"id": "a", "uses": "noop", \#(member)}]}"#)
            #expect(problems.count == 1 && problems.first?.hasSuffix(": error: " + message) == true, "\(problems)")
        }
    }

    /// The key tables of Pipelines/README.md ("The file": pipeline, profile, step) list exactly the declared keys, in
    /// order, each with the value the table declares.
    @Test func theDocumentedKeysAreTheDeclaredOnes() throws {
        let text = try String(contentsOf: FixturePaths.root.appendingPathComponent("Pipelines/README.md"), encoding: .utf8)
        let section = try #require(
            text.components(separatedBy: "## The file\n").dropFirst().first?
                .components(separatedBy: "\n### ").first)
        var tables: [[String]] = []
        var inTable = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| `") {
                if !inTable { tables.append([]) }
                inTable = true
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                tables[tables.count - 1].append(cells.count > 3 ? "\(cells[1]) | \(cells[2])" : String(line))
            } else if !line.hasPrefix("|") {
                inTable = false
            }
        }
        let expected = [PipelineKey.Scope.pipeline, .profile, .step].map { scope in
            PipelineKey.keys(in: scope).map { "`\($0.name)` | \($0.documentedValue)" }
        }
        #expect(tables == expected, "expected rows (key | value):\n\(expected.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))")
    }
}
