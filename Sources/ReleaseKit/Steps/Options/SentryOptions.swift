/// `appstore.rollout`'s `sentry` option: where the guard reads release health.
package struct SentryOptions: OptionValue, Equatable {
    /// Sentry's base URL (default `https://sentry.io`; `https://de.sentry.io` or a self-hosted host).
    package var url: String?
    /// The organization's slug.
    package var organization: String
    /// The project's slug or id.
    package var project: String
    /// A token with `org:read` (the sessions endpoint needs it), normally `${secrets.SENTRY_TOKEN}`.
    package var token: String
    /// The release name, when the app reports another than `BUNDLE@VERSION+BUILD`.
    package var release: String?

    enum CodingKeys: String, CodingKey { case url, organization, project, token, release }

    package init(url: String? = nil, organization: String, project: String, token: String, release: String? = nil) {
        self.url = url
        self.organization = organization
        self.project = project
        self.token = token
        self.release = release
    }

    /// Every key may be absent here: the step says which one is missing (`sentry.token`), and a `${…}` that stands for
    /// the whole object during validation decodes.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        organization = try container.decodeIfPresent(String.self, forKey: .organization) ?? ""
        project = try container.decodeIfPresent(String.self, forKey: .project) ?? ""
        token = try container.decodeIfPresent(String.self, forKey: .token) ?? ""
        release = try container.decodeIfPresent(String.self, forKey: .release)
    }

    package static func optionTypeName(_ format: OptionFormat) -> String { "{url, organization, project, token, release}" }
}
