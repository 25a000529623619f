import Foundation
import ReleaseAppStoreConnect
import ReleaseHTTP
import ReleaseSupport

/// The App Store Connect options every `appstore.*` and `testflight.*` step and `signing.sync` take
/// (``AppStoreConnectOptions``), checked once and turned into a client.
struct AppStoreConnectAccess: Sendable {
    var keyID: String
    var issuerID: String
    var key: String
    var api: String?

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty id, a key id that is not letters and digits, or an
    ///   `api` that is not an http(s) URL. The key itself is checked in `verify`, once secrets are resolved.
    init(_ options: AppStoreConnectOptions) throws {
        let (keyID, issuerID, key, api) = (options.keyID, options.issuerID, options.key, options.api)
        let trimmedID = keyID.trimmingCharacters(in: .whitespaces)
        guard !trimmedID.isEmpty else { throw StepError.invalidOption("key_id", "the API key id is empty") }
        guard trimmedID.allSatisfy({ $0.isLetter || $0.isNumber }) || trimmedID.contains("${") else {
            throw StepError.invalidOption("key_id", "'\(Echo.text(trimmedID))' is not a key ID (letters and digits, for example 2X9R4HXF34)")
        }
        guard !issuerID.trimmingCharacters(in: .whitespaces).isEmpty else { throw StepError.invalidOption("issuer_id", "the issuer id is empty") }
        guard !key.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepError.invalidOption("key", "the API key is empty; pass ${secrets.APP_STORE_CONNECT_KEY}")
        }
        if let api {
            guard let components = URLComponents(string: api), ["http", "https"].contains(components.scheme ?? ""),
                components.hostWithoutIDNA?.isEmpty == false, components.user == nil, components.password == nil
            else {
                throw StepError.invalidOption("api", "'\(HTTPRequest.redact(api))' is not an http(s) URL without credentials")
            }
        }
        self.keyID = trimmedID
        self.issuerID = issuerID
        self.key = key
        self.api = api
    }

    /// `poll_interval` and `wait_timeout`, checked: how often to look at a state, and for how long.
    struct Polling: Sendable {
        var interval: Duration
        var timeout: Double

        /// `interval` and `timeout` are within the options' declared ranges (``StepOptions/checkRanges()``).
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
