/// What preflight learned: enough for `plan` to describe the run.
public struct PreflightReport: Sendable, Equatable {
    /// Whether the token may push (create releases, upload assets).
    public var canPush: Bool
    /// The release already using the tag, if any (drafts only visible with push access).
    public var existing: GitHubRelease?
    /// Non-fatal observations (read-only token in a dry run, a release that will be reused).
    public var notes: [String]
}
