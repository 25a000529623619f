import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

/// Where a kind's documented options and the keys its decoding asks for disagree; empty when they agree.
///
/// Decodes the kind's example and a `with` holding every documented key (each a `${x}` stand-in, so the decode asks
/// for every key it knows), then compares the keys asked for with the documented ones, both ways.
func optionDrift(_ kind: StepKind) throws -> [String] {
    let documented = kind.documentation.options.map(\.name)
    let everyKey = JSONNode(
        .object(
            documented.map {
                JSONNode.Member(key: $0, keyLocation: SourceLocation(line: 1, column: 1), value: JSONNode(.string("${x}")))
            }))
    let example = try JSONParser.parse(kind.documentation.example)["with"] ?? JSONNode(.object([]))
    var requested: Set<String> = []
    for with in [everyKey, example] {
        requested.formUnion(try kind.make(with: with, at: .root, mode: .validation).requestedKeys)
    }
    var problems = requested.subtracting(documented).sorted().map { "'\($0)' is decoded but not documented" }
    problems += Set(documented).subtracting(requested).sorted().map { "'\($0)' is documented but never decoded" }
    if Set(documented).count != documented.count { problems.append("an option is documented twice") }
    return problems
}

/// Declares `board` and also reads `extra` by hand: a key the documentation does not know.
private struct UndeclaredKeyStep: Step {
    struct Options: StepOptions {
        @StepOption(help: "declared") var board: String
        init() {}

        enum CodingKeys: String, CodingKey { case board, extra }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _board = try container.decode(StepOption<String>.self, forKey: .board)
            _ = try container.decodeIfPresent(String.self, forKey: .extra)
        }
    }

    static let kind = "test.undeclared-key"
    static let summary = "test step"
    static let outputs: [StepDocumentation.Output] = []
    static let example = #"{"id": "u", "uses": "test.undeclared-key", "with": {"board": "b"}}"#
    init(options: Options) throws {}
    func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }
    func run(in context: StepContext) async throws -> StepOutputs { StepOutputs() }
}

/// Declares `unused` but its hand-written decoding never reads it: documented, never accepted.
private struct UndecodedOptionStep: Step {
    struct Options: StepOptions {
        @StepOption(help: "declared") var board: String
        @StepOption(help: "declared, never decoded") var unused: String?
        init() {}

        enum CodingKeys: String, CodingKey { case board }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _board = try container.decode(StepOption<String>.self, forKey: .board)
        }
    }

    static let kind = "test.undecoded-option"
    static let summary = "test step"
    static let outputs: [StepDocumentation.Output] = []
    static let example = #"{"id": "u", "uses": "test.undecoded-option", "with": {"board": "b"}}"#
    init(options: Options) throws {}
    func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }
    func run(in context: StepContext) async throws -> StepOutputs { StepOutputs() }
}

@Suite struct StepRegistryTests {
    @Test func builtInKindsAreRegisteredOnceEach() throws {
        let registry = try StepRegistry.builtIn
        #expect(registry.names == StepRegistry.builtInTypes.map { $0.kind })
    }

    @Test func aKindRegisteredTwiceIsAnError() {
        #expect(throws: StepRegistry.Error.duplicateKind("noop")) {
            try StepRegistry([NoopStep.self, PrintStep.self, NoopStep.self])
        }
        #expect("\(StepRegistry.Error.duplicateKind("noop"))" == "step kind 'noop' is registered twice")
    }

    @Test(arguments: StepRegistry.builtInTypes.map { $0.kind })
    func everyExampleIsAValidPipelineStep(kind: String) throws {
        let example = try #require(try StepRegistry.builtIn[kind]).documentation.example
        let node = try JSONParser.parse(example)
        #expect(node["uses"]?.string == kind)
        // Give the example the steps and variables it refers to, then validate it as a pipeline would.
        var steps = [example]
        var referenced: Set<String> = []
        forEachString(in: node, path: .root) { text, _, _ in
            for case .success(.stepOutput(let step, _)) in Template.scan(text) { referenced.insert(step) }
        }
        if let needs = node["needs"], case .array(let items) = needs.value { referenced.formUnion(items.compactMap(\.string)) }
        for step in referenced.sorted() { steps.append(#"{"id": "\#(step)", "uses": "shell", "with": {"run": ["true"]}}"#) }
        var variables: Set<String> = []
        forEachString(in: node, path: .root) { text, _, _ in
            for case .success(.variable(let name)) in Template.scan(text) { variables.insert(name) }
        }
        let text = #"{"version": 1, "profiles": {"release": {}, "adhoc": {"default": true}}, "steps": [\#(steps.joined(separator: ","))]}"#
        _ = try PipelineLoader().load(text: text, file: "\(kind)-example.json", extraVariables: variables)
    }

    @Test(arguments: StepRegistry.builtInTypes.map { $0.kind })
    func documentsExactlyTheOptionsItDecodes(kind: String) throws {
        let stepKind = try #require(try StepRegistry.builtIn[kind])
        #expect(try optionDrift(stepKind) == [])
    }

    @Test func theDocumentationCheckCatchesDriftBothWays() throws {
        #expect(try optionDrift(StepKind(UndeclaredKeyStep.self)) == ["'extra' is decoded but not documented"])
        #expect(try optionDrift(StepKind(UndecodedOptionStep.self)) == ["'unused' is documented but never decoded"])
    }
}
