/// The rollout guard's scheduled job of an ``ExportedPipeline`` (``RolloutGuardJob``), with what its run reads.
package struct ExportedGuardJob: Sendable, Equatable {
    /// The guard steps, in declaration order (what `--only` names).
    package let steps: [String]
    /// The cron schedule (UTC).
    package let schedule: String
    /// The secrets the guards and the steps they need read (`--only` runs those too), sorted.
    package let secrets: [String]
    /// The configuration variables (not secrets) they read, sorted.
    package let variables: [String]
}
