import Foundation

/// The App Store Connect options every `appstore.*` and `testflight.*` step takes (`key_id`, `issuer_id`, `key`,
/// `api`), checked once and turned into a client.
struct AppStoreConnectAccess: Sendable {
    /// The help of the four options, for steps that declare them (each step's options are one flat struct).
    enum Help {
        static let keyID = "App Store Connect API key ID, e.g. ${env.APP_STORE_CONNECT_KEY_ID}"
        static let issuerID = "App Store Connect API issuer ID (a UUID), e.g. ${env.APP_STORE_CONNECT_ISSUER_ID}"
        static let key = "the API key's .p8 PEM text (or a path to it), normally ${secrets.APP_STORE_CONNECT_KEY}"
        static let api = "the API base URL (default $APP_STORE_CONNECT_API_URL, else https://api.appstoreconnect.apple.com)"
        /// The `with` lines of an example.
        static let example = #""key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}","#
            + "\n          " + #""key": "${secrets.APP_STORE_CONNECT_KEY}""#
    }

    var keyID: String
    var issuerID: String
    var key: String
    var api: String?

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty id, a key id that is not letters and digits, or an
    ///   `api` that is not an http(s) URL. The key itself is checked in `verify`, once secrets are resolved.
    init(keyID: String, issuerID: String, key: String, api: String?) throws {
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
                  components.host?.isEmpty == false, components.user == nil, components.password == nil else {
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

    /// Step errors from App Store Connect failures, whose messages are already Apple's words plus what to do.
    static func stepError(_ error: any Error) -> any Error {
        if let error = error as? AppStoreConnectError { return StepError.failed(error.description) }
        return error
    }
}
