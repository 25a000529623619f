/// A remote service steps talk to. `release run --rehearse` replaces each with a local stand-in on 127.0.0.1.
package enum Service: String, Sendable, CaseIterable, Codable {
    /// GitHub's REST API (releases, notes).
    case github
    /// App Store Connect's API.
    case appstore
    /// Any other HTTP endpoint a step uploads to (crash reporters, tester distribution).
    case http
    /// Sentry's API (release health, read by `appstore.rollout`'s guard).
    case sentry
    /// Slack incoming webhooks.
    case slack
    /// Git remotes `git.push` pushes to. Its stand-in is a folder of bare repositories, one per remote name.
    case git
}
