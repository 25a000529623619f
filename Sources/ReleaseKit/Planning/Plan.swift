import ReleasePipeline

/// An immutable plan: which profile, which steps run in which order, and with what variables.
/// `release plan` prints it; the engine executes it.
package struct Plan: Sendable {
    package var pipeline: ValidatedPipeline
    package var profile: String?
    /// Why this profile: `--profile`, its `when`, or `default`.
    package var profileReason: String
    package var git: GitInfo
    package var options: RunOptions
    /// Steps in execution order (every step after what it needs; ties in declaration order).
    package var steps: [PlannedStep]
    /// The interpolator with this run's variables, environment and clock, and no outputs yet.
    package var interpolator: Interpolator

    package func step(_ id: String) -> PlannedStep? {
        steps.first { $0.id == id }
    }

    /// Every secret and environment variable the steps that will run here use and this run lacks, each once in step
    /// order: what a run says before its first step, so one run names them all (each step names its own again).
    package var unsetValues: [ResolutionError] {
        var found: [ResolutionError] = []
        for planned in steps where planned.willRun && !planned.carried {
            for missing in interpolator.unsetValues(in: planned.definition.with) where !found.contains(missing) { found.append(missing) }
        }
        return found
    }
}
