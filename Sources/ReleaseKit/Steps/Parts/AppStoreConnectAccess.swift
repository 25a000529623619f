import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport

/// The App Store Connect options every `appstore.*` and `testflight.*` step and `signing.sync` take
/// (``AppStoreConnectOptions``), checked once and turned into a client.
struct AppStoreConnectAccess: Sendable {
    var keyID: String
    var issuerID: String
    var key: String
    var api: String?

    /// Options their declarations have checked (``StepOptions/validate()``, which a step's `init` calls first). The key
    /// itself is checked in `verify`, once secrets are resolved.
    init(_ options: AppStoreConnectOptions) {
        keyID = options.keyID.trimmingCharacters(in: .whitespaces)
        issuerID = options.issuerID
        key = options.key
        api = options.api
    }

    /// `poll_interval` and `wait_timeout`, checked: how often to look at a state, and for how long.
    struct Polling: Sendable {
        var interval: Duration
        var timeout: Double

        /// `interval` and `timeout` are within the options' declared ranges (``StepOptions/validate()``).
        init(interval: Double, timeout: Double) {
            self.interval = .milliseconds(Int(interval * 1000))
            self.timeout = timeout
        }
    }

    /// The base URL: a rehearsal's stand-in, `api`, `$APP_STORE_CONNECT_API_URL`, or Apple's.
    func apiURL(in context: StepContext) throws -> String {
        try context.baseURL(.appstore, configured: AppStoreConnectClient.apiURL(configured: api, environment: context.environment))
    }

    /// The parsed key; the PEM text is masked in everything the run prints from here on.
    func parsedKey(in context: StepContext) throws -> AppStoreConnectKey {
        context.masker.add(key)
        do {
            return try AppStoreConnectKey(id: keyID, issuer: issuerID, pem: key)
        } catch let problem as AppStoreConnectKey.Problem {
            switch problem {
            case .emptyKeyID: throw StepError.invalidOption("key_id", problem.description)
            case .invalidIssuer: throw StepError.invalidOption("issuer_id", problem.description)
            case .notAPrivateKey: throw StepError.invalidOption("key", problem.description)
            }
        }
    }

    /// A client for the step: its HTTP client comes from the context (rehearsal hosts, retries logged).
    func client(in context: StepContext) throws -> AppStoreConnectClient {
        let key = try parsedKey(in: context)
        let url = try apiURL(in: context)
        do {
            return try AppStoreConnectClient(apiURL: url, key: key, http: context.httpClient(for: .appstore))
        } catch let error as AppStoreConnectError {
            throw StepError.invalidOption("api", error.description)
        }
    }

    /// A session for a flow of several requests (``AppStoreConnectWorker``): the step's client, its lines on the step's
    /// log.
    func session(in context: StepContext) throws -> AppStoreConnectSession {
        AppStoreConnectSession(client: try client(in: context), log: { context.log($0) })
    }

    /// Step errors from App Store Connect failures, whose messages are already Apple's words plus what to do.
    static func stepError(_ error: any Error) -> any Error {
        if case AppStoreConnectError.stillWaiting = error, let error = error as? AppStoreConnectError {
            return StepError.waiting(error.description)
        }
        if let error = error as? AppStoreConnectError { return StepError.failed(error.description) }
        return error
    }
}
