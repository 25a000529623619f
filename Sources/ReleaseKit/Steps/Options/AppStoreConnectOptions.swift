/// The App Store Connect options every `appstore.*` and `testflight.*` step and `signing.sync` take (`key_id`,
/// `issuer_id`, `key`, `api`), declared once and written flat beside each step's own options
/// (`@StepOptionGroup package var appStoreConnect: AppStoreConnectOptions`), checked by their declarations.
package struct AppStoreConnectOptions: StepOptions {
    @StepOption(must: .notBeEmpty(trimmed: true, "the API key id is empty"), .beKeyID, help: "App Store Connect API key ID, e.g. ${env.APP_STORE_CONNECT_KEY_ID}")
    package var keyID: String
    @StepOption(must: .notBeEmpty(trimmed: true, "the issuer id is empty"), help: "App Store Connect API issuer ID (a UUID), e.g. ${env.APP_STORE_CONNECT_ISSUER_ID}")
    package var issuerID: String
    @StepOption(
        must: .notBeEmpty(trimmed: true, "the API key is empty; pass ${secrets.APP_STORE_CONNECT_KEY}"),
        help: "the API key's .p8 PEM text (or a path to it), normally ${secrets.APP_STORE_CONNECT_KEY}")
    package var key: String
    @StepOption(must: .beHTTPURL(), help: "the API base URL (default $APP_STORE_CONNECT_API_URL, else https://api.appstoreconnect.apple.com)")
    package var api: String?

    package init() {}

    /// The `with` lines of a step's example that give the options.
    static let example =
        #""key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}","#
        + "\n          " + #""key": "${secrets.APP_STORE_CONNECT_KEY}""#
}

/// How the steps that wait on App Store Connect (`appstore.upload`, `testflight.distribute`, `appstore.submit`) poll:
/// `poll_interval` and `wait_timeout`, declared once and written flat beside each step's own options.
package struct AppStoreConnectPollingOptions: StepOptions {
    @StepOption(range: 0...3600, help: "seconds between looks at App Store Connect's state (the upload's, the build's processing)")
    package var pollInterval: Double = 15
    @StepOption(
        range: 1...604_800, help: "seconds to wait for the build to be processed before failing (with wait until-done; a shorter wait budget ends the step waiting instead)")
    package var waitTimeout: Double = 3600

    package init() {}

    /// The options as ``AppStoreConnectAccess/Polling``.
    var polling: AppStoreConnectAccess.Polling { AppStoreConnectAccess.Polling(interval: pollInterval, timeout: waitTimeout) }
}
