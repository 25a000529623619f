import Foundation
import ReleaseSteps
import ReleaseSupport

/// What happened to one step, as the summary and the run report show it.
package struct StepResult: Sendable, Equatable {
    package var id: String
    package var kind: String
    package var gate: Bool
    package var status: StepStatus
    /// Why it failed, was skipped or blocked (masked).
    package var message: String?
    package var duration: TimeInterval
    package var attempts: Int
    /// A command's real exit status, when a command failed.
    package var exitStatus: Int32?
    package var outputs: [String: OutputValue]
    package var artifacts: [Artifact]
    /// Dry runs: what the step would do.
    package var effects: [PlannedEffect]

    package init(
        id: String, kind: String, gate: Bool, status: StepStatus, message: String? = nil, duration: TimeInterval = 0,
        attempts: Int = 0, exitStatus: Int32? = nil, outputs: [String: OutputValue] = [:], artifacts: [Artifact] = [],
        effects: [PlannedEffect] = []
    ) {
        self.id = id
        self.kind = kind
        self.gate = gate
        self.status = status
        self.message = message
        self.duration = duration
        self.attempts = attempts
        self.exitStatus = exitStatus
        self.outputs = outputs
        self.artifacts = artifacts
        self.effects = effects
    }
}
