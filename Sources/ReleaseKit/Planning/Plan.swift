/// An immutable plan: which profile, which steps run in which order, and with what variables.
/// `release plan` prints it; the engine executes it.
public struct Plan: Sendable {
    public var pipeline: ValidatedPipeline
    public var profile: String?
    /// Why this profile: `--profile`, its `when`, or `default`.
    public var profileReason: String
    public var git: GitInfo
    public var options: RunOptions
    /// Steps in execution order (every step after what it needs; ties in declaration order).
    public var steps: [PlannedStep]
    /// The interpolator with this run's variables, environment and clock, and no outputs yet.
    public var interpolator: Interpolator

    public func step(_ id: String) -> PlannedStep? {
        steps.first { $0.id == id }
    }

    /// Every secret and environment variable the steps that will run here use and this run lacks, each once in step
    /// order: what a run says before its first step, so one run names them all (each step names its own again).
    public var unsetValues: [ResolutionError] {
        var found: [ResolutionError] = []
        for planned in steps where planned.willRun && !planned.carried {
            for missing in interpolator.unsetValues(in: planned.definition.with) where !found.contains(missing) { found.append(missing) }
        }
        return found
    }
}
