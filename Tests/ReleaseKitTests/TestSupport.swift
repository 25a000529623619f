import Foundation
import ReleaseTestSupport
import Synchronization
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Records every event a run emits.
final class RecordingReporter: RunReporter {
    private let storage = Mutex<[RunEvent]>([])

    func report(_ event: RunEvent) {
        storage.withLock { $0.append(event) }
    }

    var events: [RunEvent] { storage.withLock { $0 } }

    /// Every log line, as "step: line".
    var logLines: [String] {
        events.compactMap {
            if case .step(let id, .log(let line, _)) = $0 { return "\(id): \(line)" }
            if case .step(let id, .command(let line)) = $0 { return "\(id): $ \(line)" }
            return nil
        }
    }

    /// Every warning, as "step: text".
    var warnings: [String] {
        events.compactMap {
            if case .step(let id, .warning(let text)) = $0 { return "\(id): \(text)" }
            return nil
        }
    }

    /// Step ids in the order they started.
    var started: [String] {
        events.compactMap {
            if case .stepStarted(let id, _, _) = $0 { return id }
            return nil
        }
    }
}

/// Shared state the fake steps write to, keyed by a test's own name so parallel tests do not mix.
final class Blackboard: Sendable {
    static let shared = Blackboard()
    private let state = Mutex<[String: [String: Int]]>([:])

    func increment(_ board: String, _ key: String) -> Int {
        state.withLock {
            $0[board, default: [:]][key, default: 0] += 1; return $0[board]![key]!
        }
    }

    func decrement(_ board: String, _ key: String) {
        state.withLock { $0[board, default: [:]][key, default: 0] -= 1 }
    }

    func maximum(_ board: String, _ key: String, _ value: Int) {
        state.withLock { $0[board, default: [:]][key] = max($0[board]?[key] ?? 0, value) }
    }

    func value(_ board: String, _ key: String) -> Int {
        state.withLock { $0[board]?[key] ?? 0 }
    }
}

/// `test.work`: sleeps, records concurrency on a blackboard, can fail the first N attempts, produces outputs.
struct WorkStep: Step {
    struct Options: StepOptions {
        @StepOption(help: "") var board: String
        @StepOption(help: "") var milliseconds: Int?
        @StepOption(help: "") var failTimes: Int?
        @StepOption(help: "") var reject: Bool?
        @StepOption(help: "") var value: String?
        @StepOption(help: "") var readOnly: Bool?
        /// A warning its `plan` and `run` both give, as `version.bump` does for what it reads.
        @StepOption(help: "") var warn: String?
        /// Ends waiting (its wait budget ran out) in its first N runs on the board, across runs.
        @StepOption(help: "") var waitRuns: Int?
    }

    static let kind = "test.work"
    static let summary = "test step"
    static let outputs: [StepDocumentation.Output] = [.init("value", "string", ""), .init("attempt", "number", "")]
    static let example = #"{"id": "w", "uses": "test.work", "with": {"board": "b"}}"#

    let options: Options
    init(options: Options) throws { self.options = options }

    var isReadOnly: Bool { options.readOnly ?? false }

    func plan(in context: StepContext) async throws -> StepPlan {
        if let warning = options.warn { context.warn(warning) }
        return StepPlan(effects: [.note("work \(context.stepID)")], outputs: StepOutputs(["value": .string(options.value ?? context.stepID)]))
    }

    func run(in context: StepContext) async throws -> StepOutputs {
        if let warning = options.warn { context.warn(warning) }
        let board = Blackboard.shared
        let running = board.increment(options.board, "running")
        board.maximum(options.board, "max", running)
        let runs = board.increment(options.board, "ran:\(context.stepID)")
        defer { board.decrement(options.board, "running") }
        context.log("working \(context.stepID) attempt \(context.attempt)")
        if let milliseconds = options.milliseconds {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
        if options.reject == true { throw StepError.rejected(["\(context.stepID) found a problem"]) }
        if runs <= (options.waitRuns ?? 0) { throw StepError.waiting("processing of \(context.stepID): still PROCESSING after 5m00s, the step's wait budget") }
        if context.attempt <= (options.failTimes ?? 0) {
            throw StepError.failed("\(context.stepID) failed on attempt \(context.attempt)")
        }
        return StepOutputs(["value": .string(options.value ?? context.stepID), "attempt": .number(Double(context.attempt))])
    }
}

/// `test.verify-fails`: its verify always fails (preflight).
struct VerifyFailsStep: Step {
    struct Options: StepOptions { @StepOption(help: "") var board: String }
    static let kind = "test.verify-fails"
    static let summary = "test step"
    static let outputs: [StepDocumentation.Output] = []
    static let example = #"{"id": "v", "uses": "test.verify-fails", "with": {"board": "b"}}"#
    let options: Options
    init(options: Options) throws { self.options = options }
    func verify(in context: StepContext) async throws { throw StepError.failed("the token is not accepted") }
    func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }
    func run(in context: StepContext) async throws -> StepOutputs {
        _ = Blackboard.shared.increment(options.board, "ran:\(context.stepID)")
        return StepOutputs()
    }
}

/// `test.setup`: "changes the machine" (a line in a log) and registers the undo, like `signing.keychain`; can
/// fail after registering, wait to be interrupted, or have an undo that fails.
struct SetupStep: Step {
    struct Options: StepOptions {
        @StepOption(.path, help: "") var log: String
        @StepOption(help: "") var fail: Bool?
        @StepOption(help: "") var milliseconds: Int?
        @StepOption(help: "") var failTeardown: Bool?
    }
    static let kind = "test.setup"
    static let summary = "test step"
    static let outputs: [StepDocumentation.Output] = []
    static let example = #"{"id": "s", "uses": "test.setup", "with": {"log": "l"}}"#
    let options: Options
    init(options: Options) throws { self.options = options }
    func plan(in context: StepContext) async throws -> StepPlan { StepPlan() }
    func run(in context: StepContext) async throws -> StepOutputs {
        let log = options.log, id = context.stepID, failing = options.failTeardown == true
        Self.append("set up \(id)", to: log)
        context.addTeardown("undo \(id)") {
            Self.append("undo \(id)", to: log)
            if failing { throw StepError.failed("cannot undo \(id)") }
        }
        if let milliseconds = options.milliseconds { try await Task.sleep(for: .milliseconds(milliseconds)) }
        if options.fail == true { throw StepError.failed("\(id) failed after setting up") }
        return StepOutputs()
    }
    static func append(_ line: String, to path: String) {
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try? (old + line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}

enum TestPipelines {
    /// The built-in kinds and the test steps; a duplicate kind fails every test that loads a pipeline.
    static var registry: StepRegistry {
        get throws { try StepRegistry(StepRegistry.builtInTypes + [WorkStep.self, VerifyFailsStep.self, SetupStep.self]) }
    }

    static func temporaryDirectory() -> String {
        let path = TestTemporary.root + "/release-tests-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func load(_ text: String, file: String = "test.json", variables: Set<String> = []) throws -> ValidatedPipeline {
        try PipelineLoader(registry: registry).load(text: text, file: file, extraVariables: variables)
    }

    /// Diagnostics of an invalid pipeline, as printed.
    static func problems(_ text: String, file: String = "test.json") -> [String] {
        do {
            _ = try load(text, file: file)
            return []
        } catch let error as PipelineError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    static let fixedGit = GitInfo(branch: "release/3.0.0", sha: "0123456789abcdef0123456789abcdef01234567", commitCount: 4321)

    /// Plans and runs `text` with test defaults; returns the result and the reporter.
    static func run(
        _ text: String, configure: (inout RunOptions) -> Void = { _ in }, environment: [String: String] = [:],
        onStart: (@Sendable (Engine) -> Void)? = nil, loaded: ((ValidatedPipeline) -> Void)? = nil
    ) async throws -> (RunResult, RecordingReporter) {
        let pipeline = try load(text)
        loaded?(pipeline)
        var options = RunOptions(
            workingDirectory: temporaryDirectory(),
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
            jobs: 4, now: Date(timeIntervalSince1970: 1_413_957_678), git: fixedGit)
        configure(&options)
        let masker = SecretMasker()
        let plan = try await Planner().plan(pipeline, options: options, masker: masker)
        let reporter = RecordingReporter()
        let engine = Engine(plan: plan, reporter: reporter, masker: masker)
        onStart?(engine)
        let result = await engine.run()
        // Every run in the unit tests also checks that built-in steps return only the outputs they declare.
        for problem in DeclaredOutputs.problems(result, registry: try StepRegistry(StepRegistry.builtInTypes)) {
            Issue.record(Comment(rawValue: problem))
        }
        return (result, reporter)
    }
}

extension RunResult {
    /// "id=status" for every step, in plan order.
    var statuses: [String] { steps.map { "\($0.id)=\($0.status.label)" } }
}

/// Decodes a step's `with` object written as JSON text the way a run does: keys, defaults and choices from the
/// options' declarations. Throws ``OptionsDecoder/Failure`` (or the parser's error) for bad options.
func decodeOptions<Options: StepOptions>(_ type: Options.Type, _ json: String) throws -> Options {
    try OptionsDecoder(mode: .resolved).decode(type, from: JSONParser.parse(json), at: .root).value
}

/// The `with` object of a step kind's documented example, decoded as a run decodes it.
func exampleOptions<S: Step>(_ type: S.Type) throws -> S.Options {
    let example = try JSONParser.parse(S.documentation.example)
    return try OptionsDecoder(mode: .resolved).decode(S.Options.self, from: example["with"] ?? JSONNode(.object([])), at: .root).value
}

/// A small, fast, seeded generator (Steele, Lea and Flood's SplitMix64), so a run can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
