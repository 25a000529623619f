/// What a `${...}` names.
package enum TemplateReference: Sendable, Equatable, Hashable {
    /// A pipeline or profile variable, or a `--var`.
    case variable(String)
    /// `env.NAME`, with an optional fallback `${env.NAME:-fallback}`.
    case environment(String, fallback: String?)
    /// `secrets.NAME`: read from the environment and masked everywhere.
    case secret(String)
    /// `steps.ID.outputs.KEY`.
    case stepOutput(step: String, key: String)
    /// `git.branch`, `git.sha`, `git.commit_count`.
    case git(GitField)
    /// `profile`: the chosen profile's name.
    case profile
    /// `now` or `now:FORMAT` (UTC, fixed once per run). `nil` means ISO 8601.
    case now(format: String?)

    /// The `git.*` values.
    package enum GitField: String, Sendable, CaseIterable {
        case branch
        case sha
        case shortSHA = "short_sha"
        case commitCount = "commit_count"
    }
}
