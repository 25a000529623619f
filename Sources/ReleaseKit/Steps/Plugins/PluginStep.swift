import Foundation
import ReleaseSupport
import Synchronization

/// A step of an external plugin kind (protocol 1, DESIGN §5): `EXE verify|plan|run` with one JSON object on
/// standard input and JSON lines on standard output, turned into the same events, effects and outputs as a
/// built-in step's.
///
/// It is built by its ``StepKind`` (made from the plugin's ``PluginDescription``), never registered as a type: the
/// static requirements of ``Step`` describe no real kind.
package struct PluginStep: Step {
    /// Unused: a plugin's options are checked against its JSON Schema and kept as JSON (``options``).
    package struct Options: StepOptions {
        package init() {}
    }

    package static let kind = "plugin"
    package static let summary = "An external step plugin"
    package static let outputs: [StepDocumentation.Output] = []
    package static let example = "{}"

    package let description: PluginDescription
    package let executable: String
    /// The `with` object, resolved at run time.
    package let options: PluginValue

    package init(options: Options) throws {
        throw InternalError("a plugin step is built from its description")
    }

    package init(description: PluginDescription, executable: String, options: PluginValue) {
        self.description = description
        self.executable = executable
        self.options = options
    }

    /// How messages name the plugin: `'slack.post' (/path/to/release-step-slack.post)`.
    package var label: String { "'\(description.kind)' (\(executable))" }

    package var isReadOnly: Bool { description.readOnly }

    package func verify(in context: StepContext) async throws {
        _ = try await call("verify", in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let answer = try await call("plan", in: context)
        return StepPlan(effects: answer.effects.map(PlannedEffect.note), outputs: answer.outputs)
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        try await call("run", in: context).outputs
    }

    /// The standard input of one call.
    func request(in context: StepContext) -> String {
        PluginValue.object([
            (key: "protocol", value: .number(Double(PluginDescription.protocolVersion))),
            (key: "step", value: .string(context.stepID)),
            (key: "options", value: options),
            (key: "dry_run", value: .bool(context.isDryRun)),
            (key: "working_directory", value: .string(context.workingDirectory)),
            // The run's scratch folder is named uniquely per run (`release-run-PID-RANDOM`).
            (key: "run_id", value: .string(URL(fileURLWithPath: context.temporaryDirectory).lastPathComponent)),
        ]).json + "\n"
    }

    /// Runs `EXE verb`, turning its lines into events, and checks it ended with a successful result.
    /// - Throws: ``PluginError`` naming the plugin.
    func call(_ verb: String, in context: StepContext) async throws -> PluginAnswer {
        let reader = PluginLineReader(plugin: label, outputs: description.outputs, context: context)
        let result = try await context.run(
            [executable, verb], echo: false, input: Array(request(in: context).utf8),
            onRawLine: { line, stream in
                reader.read(line, stream)
            })
        return try await reader.finish(status: result)
    }
}

/// What a plugin call produced.
struct PluginAnswer: Sendable {
    var effects: [String] = []
    var outputs = StepOutputs()
}

/// Reads a plugin's lines as they arrive (one at a time: ``ProcessRunner`` serialises them) and keeps the first
/// protocol error, so a step fails with the line that broke the protocol, not a later one.
final class PluginLineReader: Sendable {
    private struct State {
        var answer = PluginAnswer()
        var artifacts: [String] = []
        var result: (ok: Bool, message: String)?
        var error: PluginError?
    }

    private let plugin: String
    private let outputs: [String: String]
    private let context: StepContext
    private let state = Mutex(State())

    init(plugin: String, outputs: [StepDocumentation.Output], context: StepContext) {
        self.plugin = plugin
        self.outputs = Dictionary(outputs.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        self.context = context
    }

    /// Handles one line as the plugin wrote it. Standard error is the step's log. A line is parsed before it is
    /// masked (a secret such as `1` or `true` masked inside the JSON would break it), and the error that quotes it
    /// quotes it masked before cutting it short: its log messages go through the context's masking, its outputs
    /// keep their values like any step's (every output is masked where it is shown).
    func read(_ raw: String, _ stream: OutputStreamKind) {
        guard stream == .stdout else {
            context.log(raw, stream: .stderr)
            return
        }
        guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        let line = context.masker.mask(raw)
        do {
            try handle(raw, line: line)
        } catch let error as PluginError {
            state.withLock { if $0.error == nil { $0.error = error } }
        } catch {
            state.withLock { if $0.error == nil { $0.error = .malformedLine(plugin, line) } }
        }
    }

    /// `raw` is what is parsed, `line` (masked) what errors quote.
    private func handle(_ raw: String, line: String) throws {
        guard let value = PluginValue.parse(raw), case .object = value else { throw PluginError.malformedLine(plugin, line) }
        guard let type = value["type"]?.string else { throw PluginError.badLine(plugin, "line without a 'type'", line) }
        switch type {
        case "log":
            guard let message = value["message"]?.string else { throw PluginError.badLine(plugin, "'log' line without a 'message'", line) }
            context.log(message)
        case "progress":
            guard case .number(let completed)? = value["completed"] else {
                throw PluginError.badLine(plugin, "'progress' line without a number 'completed'", line)
            }
            var total: Int64?
            if case .number(let number)? = value["total"] { total = Int64(number) }
            context.progress(done: Int64(completed), total: total, unit: .items)
        case "effect":
            guard let description = value["description"]?.string else {
                throw PluginError.badLine(plugin, "'effect' line without a 'description'", line)
            }
            state.withLock { $0.answer.effects.append(description) }
        case "output":
            guard let name = value["name"]?.string, let raw = value["value"] else {
                throw PluginError.badLine(plugin, "'output' line without a 'name' and a 'value'", line)
            }
            let output = try convert(raw, type: outputs[name], line: line)
            state.withLock { $0.answer.outputs[name] = output }
        case "artifact":
            guard let path = value["path"]?.string else { throw PluginError.badLine(plugin, "'artifact' line without a 'path'", line) }
            state.withLock { $0.artifacts.append(path) }
        case "result":
            guard case .bool(let ok)? = value["ok"] else { throw PluginError.badLine(plugin, "'result' line without a boolean 'ok'", line) }
            let message = value["message"]?.string ?? "failed without a message"
            state.withLock { $0.result = (ok, message) }
        default:
            throw PluginError.unknownType(plugin, type, line)
        }
    }

    /// An output value as the type the plugin declared for it (a string for an undeclared one).
    private func convert(_ value: PluginValue, type: String?, line: String) throws -> OutputValue {
        switch (type ?? "string", value) {
        case ("path", .string(let path)): return .path(context.resolvePath(path))
        case ("number", .number(let number)): return .number(number)
        case ("bool", .bool(let flag)): return .bool(flag)
        case ("list", .array(let items)): return .list(items.map { .string($0.string ?? $0.json) })
        case ("string", .string(let text)): return .string(text)
        case ("string", let other): return .string(other.json)
        case (let declared, let other):
            throw PluginError.badLine(plugin, "\(declared) output as \(other.typeName)", line)
        }
    }

    /// Judges the call once the plugin has exited: the first protocol error, else its result.
    func finish(status: ProcessResult) async throws -> PluginAnswer {
        let final = state.withLock { $0 }
        if let error = final.error { throw error }
        guard let result = final.result else {
            let ending = status.signal.map { "was killed by signal \($0)" } ?? "exited with status \(status.status)"
            throw PluginError.noResult(plugin, ending)
        }
        guard result.ok else { throw PluginError.failed(plugin, result.message) }
        guard status.succeeded else { throw PluginError.exitedAfterSuccess(plugin, status.status) }
        var answer = final.answer
        for path in final.artifacts {
            let artifact = try await context.artifact(path)
            answer.outputs.artifacts.append(artifact)
        }
        return answer
    }
}
