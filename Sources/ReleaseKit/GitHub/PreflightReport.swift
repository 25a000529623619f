/// What preflight learned: enough for `plan` to describe the run.
package struct PreflightReport: Sendable, Equatable {
    /// Whether the token may push (create releases, upload assets).
    package var canPush: Bool
    /// The release already using the tag, if any (drafts only visible with push access).
    package var existing: GitHubRelease?
    /// Non-fatal observations (read-only token in a dry run, a release that will be reused).
    package var notes: [String]
}
