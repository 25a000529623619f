import Foundation

/// How a run ended.
public struct RunResult: Sendable, Equatable {
    public var pipeline: String
    public var file: String
    public var profile: String?
    public var branch: String?
    public var dryRun: Bool
    public var interrupted: Bool
    /// Problems found by preflight (every step's `verify` before anything ran).
    public var preflightFailed: Bool
    public var startedAt: Date
    public var duration: TimeInterval
    /// In plan order.
    public var steps: [StepResult]
    /// Teardowns that failed (`step: what: why`): the machine was not left as the run found it.
    public var teardownFailures: [String] = []
    /// The kind of runner the steps ran on (`macos`, `linux`): this machine's (``Platform/systemKind``), or the
    /// `--os` a simulated runner passed.
    public var runner: String = Platform.systemKind

    /// The process exit code, as DESIGN §3 fixes it: 130 interrupted, 1 a step failed, 2 a gate rejected, 0.
    public var exitCode: Int32 {
        if interrupted { return ExitCodes.interrupted }
        if steps.contains(where: { $0.status == .failed }) || !teardownFailures.isEmpty { return ExitCodes.stepFailed }
        if steps.contains(where: { $0.status == .rejected }) { return ExitCodes.gateRejected }
        return ExitCodes.success
    }

    public func step(_ id: String) -> StepResult? {
        steps.first { $0.id == id }
    }
}
