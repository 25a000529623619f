/// `appstore.rollout`'s `sentry` option: where the guard reads release health.
public struct SentryOptions: OptionValue, Equatable {
    /// Sentry's base URL (default `https://sentry.io`; `https://de.sentry.io` or a self-hosted host).
    public var url: String?
    /// The organization's slug.
    public var organization: String
    /// The project's slug or id.
    public var project: String
    /// A token with `org:read` (the sessions endpoint needs it), normally `${secrets.SENTRY_TOKEN}`.
    public var token: String
    /// The release name, when the app reports another than `BUNDLE@VERSION+BUILD`.
    public var release: String?

    public static func optionTypeName(_ format: OptionFormat) -> String { "{url, organization, project, token, release}" }
}
