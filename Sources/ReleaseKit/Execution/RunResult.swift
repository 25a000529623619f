import Foundation
import ReleaseSupport

/// How a run ended.
package struct RunResult: Sendable, Equatable {
    package var pipeline: String
    package var file: String
    package var profile: String?
    package var branch: String?
    package var dryRun: Bool
    package var interrupted: Bool
    /// Problems found by preflight (every step's `verify` before anything ran).
    package var preflightFailed: Bool
    package var startedAt: Date
    package var duration: TimeInterval
    /// In plan order.
    package var steps: [StepResult]
    /// Teardowns that failed (`step: what: why`): the machine was not left as the run found it.
    package var teardownFailures: [String] = []
    /// The kind of runner the steps ran on (`macos`, `linux`): this machine's (``Platform/systemKind``), or the
    /// `--os` a simulated runner passed.
    package var runner: String = Platform.systemKind

    /// The process exit code, as DESIGN §3 fixes it: 130 interrupted, 1 a step failed, 2 a gate rejected, 0.
    package var exitCode: Int32 {
        if interrupted { return ExitCodes.interrupted }
        if steps.contains(where: { $0.status == .failed }) || !teardownFailures.isEmpty { return ExitCodes.stepFailed }
        if steps.contains(where: { $0.status == .rejected }) { return ExitCodes.gateRejected }
        return ExitCodes.success
    }

    /// The steps that ended *waiting* on something outside themselves (their `wait` budget ran out), in plan order:
    /// not the steps that wait because a step they need does.
    package var waiting: [StepResult] {
        steps.filter { $0.status == .waiting && $0.attempts > 0 }
    }

    package func step(_ id: String) -> StepResult? {
        steps.first { $0.id == id }
    }
}
