import Foundation
import ReleaseSteps
import ReleaseSupport

/// The run report (`--report FILE`) and JSON log events: plain JSON values built from results.
package enum RunReport {
    /// The whole report as a JSON object.
    package static func object(_ result: RunResult) -> [String: Any] {
        var object: [String: Any] = [
            "pipeline": result.pipeline,
            "file": result.file,
            "dry_run": result.dryRun,
            "interrupted": result.interrupted,
            "preflight_failed": result.preflightFailed,
            "exit_code": Int(result.exitCode),
            "started_at": Timestamp.iso8601(result.startedAt),
            "duration": rounded(result.duration),
            "runner": result.runner,
            "steps": result.steps.map { step($0, runner: result.runner) },
        ]
        if !result.teardownFailures.isEmpty { object["teardown_failures"] = result.teardownFailures }
        // Steps whose wait budget ran out, and what for: the release is not done, and not failed.
        if !result.waiting.isEmpty {
            object["waiting"] = result.waiting.map { ["step": $0.id, "for": $0.message ?? ""] as [String: Any] }
        }
        object["profile"] = result.profile ?? NSNull()
        object["branch"] = result.branch ?? NSNull()
        return object
    }

    /// One step's entry; `runner` is the kind of machine it ran on (`release report --cost` adds up `duration` per
    /// runner kind).
    package static func step(_ step: StepResult, runner: String? = nil) -> [String: Any] {
        var object: [String: Any] = [
            "id": step.id,
            "kind": step.kind,
            "gate": step.gate,
            "status": step.status.label,
            "duration": rounded(step.duration),
            "attempts": step.attempts,
            "outputs": step.outputs.mapValues(value),
            "artifacts": step.artifacts.map { ["path": $0.path, "size": $0.size, "sha256": $0.sha256] as [String: Any] },
        ]
        if let runner { object["runner"] = runner }
        if let message = step.message { object["message"] = message }
        if let status = step.exitStatus { object["exit_status"] = Int(status) }
        if !step.effects.isEmpty { object["effects"] = step.effects.map(effect) }
        return object
    }

    /// A planned effect as JSON.
    package static func effect(_ effect: PlannedEffect) -> [String: Any] {
        switch effect {
        case .command(let argv, let directory):
            var object: [String: Any] = ["type": "command", "argv": argv]
            if let directory { object["directory"] = directory }
            return object
        case .writeFile(let path, let diff, let detail):
            var object: [String: Any] = ["type": "write", "path": path]
            if let diff { object["diff"] = diff }
            if let detail { object["detail"] = detail }
            return object
        case .delete(let path): return ["type": "delete", "path": path]
        case .move(let from, let to): return ["type": "move", "from": from, "to": to]
        case .request(let method, let url, let detail):
            var object: [String: Any] = ["type": "request", "method": method, "url": url]
            if let detail { object["detail"] = detail }
            return object
        case .note(let text): return ["type": "note", "text": text]
        }
    }

    /// An output value as JSON (``JSONWriter`` writes integral numbers as integers).
    package static func value(_ value: OutputValue) -> Any {
        switch value {
        case .string(let text), .path(let text): return text
        case .number(let number): return number
        case .bool(let flag): return flag
        case .list(let items): return items.map(self.value)
        }
    }

    /// Serialises `object` (sorted keys) with every secret masked in its strings (``SecretMasker/maskStrings(in:)``):
    /// the strings are masked before they are written, never the JSON text, so the result is always valid JSON.
    package static func encode(_ object: Any, pretty: Bool, masker: SecretMasker) -> String {
        JSONWriter.text(masker.maskStrings(in: object), pretty: pretty) ?? "{}"
    }

    /// Writes the report to `path` atomically.
    package static func write(_ result: RunResult, to path: String, masker: SecretMasker) throws {
        try AtomicFile.write(encode(object(result), pretty: true, masker: masker) + "\n", to: path)
    }

    private static func rounded(_ seconds: TimeInterval) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}
