/// The rollout guard's scheduled job of an ``ExportedPipeline`` (``RolloutGuardJob``), with what its run reads.
public struct ExportedGuardJob: Sendable, Equatable {
    /// The guard steps, in declaration order (what `--only` names).
    public let steps: [String]
    /// The cron schedule (UTC).
    public let schedule: String
    /// The secrets the guards and the steps they need read (`--only` runs those too), sorted.
    public let secrets: [String]
    /// The configuration variables (not secrets) they read, sorted.
    public let variables: [String]
}
