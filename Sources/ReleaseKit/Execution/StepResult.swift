import Foundation

/// What happened to one step, as the summary and the run report show it.
public struct StepResult: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var gate: Bool
    public var status: StepStatus
    /// Why it failed, was skipped or blocked (masked).
    public var message: String?
    public var duration: TimeInterval
    public var attempts: Int
    /// A command's real exit status, when a command failed.
    public var exitStatus: Int32?
    public var outputs: [String: OutputValue]
    public var artifacts: [Artifact]
    /// Dry runs: what the step would do.
    public var effects: [PlannedEffect]

    public init(
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
