import Foundation
import ReleaseHTTP
import Synchronization

/// A client for the App Store Connect API (JSON:API over HTTPS) on the project's libcurl HTTP layer.
///
/// Every request carries a fresh-enough ES256 token: one is signed per 20 minutes and renewed a minute before it
/// expires, so an upload that takes an hour keeps working. The token goes only to the API host (upload URLs from
/// `uploadOperations` get exactly the headers Apple gave, and no token). Requests retry on connection errors, 429
/// and 5xx, honouring `Retry-After` (the HTTP client's policy); error bodies become ``AppStoreConnectError`` with
/// Apple's `errors[]` verbatim; collections are followed through `links.next`.
package struct AppStoreConnectClient: Sendable {
    /// Apple's API, when neither a pipeline nor `$APP_STORE_CONNECT_API_URL` names another.
    package static let defaultAPIURL = "https://api.appstoreconnect.apple.com"

    /// The API base URL to use: `configured` (a step's `api`), else `$APP_STORE_CONNECT_API_URL`, else Apple's.
    package static func apiURL(configured: String? = nil, environment: [String: String]) -> String {
        configured ?? environment["APP_STORE_CONNECT_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultAPIURL
    }

    /// The API base URL without a trailing slash: `https://api.appstoreconnect.apple.com`, or a stand-in's.
    package let apiURL: String
    let http: HTTPClient
    private let tokens: TokenCache

    /// - Parameters:
    ///   - http: a client from the step's context; its credential hosts are narrowed to the API host.
    ///   - clock: real time for token expiry (not the run's fixed `now`).
    package init(apiURL: String, key: AppStoreConnectKey, http: HTTPClient, clock: @escaping @Sendable () -> Date = Date.init) throws {
        var base = apiURL
        while base.hasSuffix("/") { base.removeLast() }
        guard let host = URLComponents(string: base)?.hostWithoutIDNA?.lowercased(), !host.isEmpty else {
            throw AppStoreConnectError.invalidResponse(path: apiURL, reason: "not an http(s) URL with a host")
        }
        var configuration = http.configuration
        configuration.credentialHosts = [host]
        self.apiURL = base
        self.http = HTTPClient(configuration: configuration)
        self.tokens = TokenCache(key: key, clock: clock)
    }

    /// Sends `method` to `path` (with its query) and returns the 2xx body; other statuses throw.
    /// - Parameter json: a JSON:API request document, sent as `application/json`.
    package func send(_ method: String, _ path: String, json: Data? = nil) async throws -> Data {
        let url = path.hasPrefix("http://") || path.hasPrefix("https://") ? path : apiURL + path
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: json.map(HTTPBody.data) ?? .empty,
            authorization: "Bearer " + (try tokens.current().text))
        let response = try await http.send(request)
        guard response.isSuccess else {
            let entries = AppStoreConnectError.entries(in: response.body) ?? []
            if response.status == 401 { throw AppStoreConnectError.unauthorized(errors: entries) }
            throw AppStoreConnectError.api(method: method, path: Self.readable(path), status: response.status, errors: entries)
        }
        return response.body
    }

    /// Decodes a 2xx answer as `T`.
    package func get<T: Decodable>(_ type: T.Type, _ path: String) async throws -> T {
        try decode(type, try await send("GET", path), path: path)
    }

    /// Every item of a collection, following `links.next` page after page.
    package func all<Item: Decodable & Sendable>(_ type: Item.Type, _ path: String) async throws -> [Item] {
        var items: [Item] = []
        var next: String? = path
        var seen: Set<String> = []
        while let current = next, seen.insert(current).inserted {
            let page = try decode(CollectionPage<Item>.self, try await send("GET", current), path: current)
            items += page.data
            next = page.links?.next
        }
        return items
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data, path: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw AppStoreConnectError.invalidResponse(path: Self.readable(path), reason: "not a \(T.self): \(error)")
        }
    }

    /// A path or URL as messages show it: no user information, the query decoded (`filter[app]=…`).
    static func readable(_ path: String) -> String {
        let redacted = HTTPRequest.redact(path)
        return redacted.removingPercentEncoding ?? redacted
    }
}

/// One page of a JSON:API collection: its items and the link to the next page.
struct CollectionPage<Item: Decodable>: Decodable {
    var data: [Item]
    var links: Links?
    struct Links: Decodable { var next: String? }
}

/// The token in use, renewed a minute before it expires. A lock, not an actor: signing takes microseconds.
final class TokenCache: Sendable {
    private let key: AppStoreConnectKey
    private let clock: @Sendable () -> Date
    private let token = Mutex<AppStoreConnectToken?>(nil)

    init(key: AppStoreConnectKey, clock: @escaping @Sendable () -> Date) {
        self.key = key
        self.clock = clock
    }

    func current() throws -> AppStoreConnectToken {
        let now = clock()
        return try token.withLock { token in
            if let token, token.isValid(at: now) { return token }
            let fresh = try AppStoreConnectToken(key: key, now: now)
            token = fresh
            return fresh
        }
    }
}
