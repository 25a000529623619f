import Foundation
import ReleaseSteps
import ReleaseSupport

/// `--log-format json`: one JSON object per event and line on standard output, for log collectors and `jq`.
///
/// Every event has `event` and `time`; one key per concept: the step is always `step`, its kind `kind`, a message
/// `message`. The events and their keys are listed in Pipelines/README.md ("JSON events").
package final class JSONLinesReporter: RunReporter {
    private let write: @Sendable (String) -> Void
    private let masker: SecretMasker
    private let clock: @Sendable () -> Date

    package init(
        masker: SecretMasker, write: @escaping @Sendable (String) -> Void = Terminal.writeOutput,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.masker = masker
        self.write = write
        self.clock = clock
    }

    package func report(_ event: RunEvent) {
        var object: [String: Any]
        switch event {
        case .runStarted(let pipeline, let file, let profile, let reason, let branch, let dryRun, let steps):
            object = [
                "event": "run_started", "pipeline": pipeline, "file": file, "profile": profile ?? NSNull(),
                "profile_reason": reason, "branch": branch ?? NSNull(), "dry_run": dryRun, "steps": steps,
            ]
        case .preflightFailed(let step, let message):
            object = ["event": "preflight_failed", "step": step, "message": message]
        case .stepStarted(let step, let kind, let attempt):
            object = ["event": "step_started", "step": step, "kind": kind, "attempt": attempt]
        case .step(let step, let stepEvent):
            switch stepEvent {
            case .command(let line): object = ["event": "command", "step": step, "command": line]
            case .log(let line, let stream): object = ["event": "log", "step": step, "stream": stream.rawValue, "line": line]
            case .warning(let line): object = ["event": "warning", "step": step, "message": line]
            case .progress(let done, let total, let unit):
                object = ["event": "progress", "step": step, "done": done, "total": total ?? NSNull(), "unit": unit.rawValue]
            }
        case .stepRetrying(let step, let attempt, let delay, let message):
            object = ["event": "step_retrying", "step": step, "attempt": attempt, "delay": delay, "message": message]
        case .stepFinished(let result):
            object = RunReport.step(result)
            object["step"] = object.removeValue(forKey: "id")
            object["event"] = "step_finished"
        case .teardownFinished(let step, let description, let error):
            object = ["event": "teardown_finished", "step": step, "description": description, "error": error ?? NSNull()]
        case .runFinished(let result):
            object = RunReport.object(result)
            object["event"] = "run_finished"
        }
        emit(object)
    }

    /// Writes one event that is not a ``RunEvent`` (the rehearsal's summary), with its time.
    /// - Parameter object: the event's keys, `event` among them.
    package func emit(_ object: [String: Any]) {
        var object = object
        object["time"] = Timestamp.iso8601(clock(), milliseconds: true)
        write(RunReport.encode(object, pretty: false, masker: masker) + "\n")
    }
}
