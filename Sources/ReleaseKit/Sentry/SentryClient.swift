import Foundation
import ReleaseHTTP

/// A client for Sentry's release health (the sessions endpoint of `../shared/reference/sentry`), on the project's
/// libcurl HTTP layer.
///
/// One request per check: `GET /api/0/organizations/{org}/sessions/` with `crash_free_rate(session)`,
/// `crash_free_rate(user)` and `sum(session)` for `query=release:"BUNDLE@VERSION+BUILD"` over the last 24 hours in
/// hourly buckets: recent health, so a build that recovers is seen to recover. The token travels only in the
/// `Authorization` header and only to Sentry's host.
package struct SentryClient: Sendable {
    /// Sentry's hosted service, when a pipeline names no other.
    package static let defaultURL = "https://sentry.io"
    /// The window the rates are computed over.
    package static let statsPeriod = "24h"

    /// The base URL without a trailing slash.
    package let baseURL: String
    package let organization: String
    package let project: String
    let http: HTTPClient
    private let authorization: String

    /// - Throws: ``SentryError/invalidInput(_:)`` when `baseURL` is not an http(s) URL with a host.
    package init(baseURL: String, organization: String, project: String, token: String, http: HTTPClient) throws {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = HTTPRequest.httpComponents(base), let host = components.hostWithoutIDNA?.lowercased(),
            components.user == nil, components.password == nil
        else {
            throw SentryError.invalidInput("'\(HTTPRequest.redact(baseURL))' is not an http(s) URL without credentials")
        }
        var configuration = http.configuration
        configuration.credentialHosts = [host]
        self.baseURL = base
        self.organization = organization
        self.project = project
        self.http = HTTPClient(configuration: configuration)
        self.authorization = "Bearer \(token)"
    }

    /// The release name Sentry's SDKs report by default for an iOS app: `BUNDLE@VERSION+BUILD`.
    package static func releaseName(bundleID: String, version: String, build: String) -> String {
        build.isEmpty ? "\(bundleID)@\(version)" : "\(bundleID)@\(version)+\(build)"
    }

    /// The sessions request for `release`.
    package func sessionsURL(release: String) -> String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "field", value: "crash_free_rate(session)"),
            URLQueryItem(name: "field", value: "crash_free_rate(user)"),
            URLQueryItem(name: "field", value: "sum(session)"),
            URLQueryItem(name: "project", value: project),
            URLQueryItem(name: "query", value: "release:\"\(release)\""),
            URLQueryItem(name: "statsPeriod", value: Self.statsPeriod),
            URLQueryItem(name: "interval", value: "1h"),
        ]
        // URLComponents leaves `+` and `:` alone in a query; Sentry reads `+` as a space.
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return baseURL + "/api/0/organizations/\(Self.segment(organization))/sessions/?" + query
    }

    /// The health of `release` over the last ``statsPeriod``, rates in percent.
    /// - Throws: ``SentryError``: `refused` for 401/403, `unreachable` for a failed connection or 5xx.
    package func health(release: String) async throws -> SentryReleaseHealth {
        let url = sessionsURL(release: release)
        let shown = HTTPRequest.redact(url).removingPercentEncoding ?? HTTPRequest.redact(url)
        let response: HTTPResponse
        do {
            var request = HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")], authorization: authorization)
            request.maxResponseBytes = 1 << 20
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw SentryError.unreachable(error.description)
        }
        let detail = Self.detail(response.body)
        switch response.status {
        case 200..<300: break
        case 401, 403: throw SentryError.refused(status: response.status, detail: detail)
        case 500...: throw SentryError.unreachable("HTTP \(response.status) from \(shown)")
        default: throw SentryError.api(status: response.status, url: shown, detail: detail)
        }
        let document: SentrySessionsResponse
        do {
            document = try JSONDecoder().decode(SentrySessionsResponse.self, from: response.body)
        } catch {
            throw SentryError.invalidResponse(url: shown, reason: "\(error)")
        }
        let sessions = document.total("sum(session)") ?? 0
        guard sessions.isFinite, sessions >= 0, sessions < 1e15 else {
            throw SentryError.invalidResponse(url: shown, reason: "sum(session) is \(sessions)")
        }
        return SentryReleaseHealth(
            sessions: Int(sessions),
            crashFreeSessions: SentryReleaseHealth.percent(fromFraction: document.total("crash_free_rate(session)")),
            crashFreeUsers: SentryReleaseHealth.percent(fromFraction: document.total("crash_free_rate(user)")))
    }

    /// Sentry's `{"detail": "..."}` error text, shortened; empty when the body has none.
    static func detail(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let detail = object["detail"] as? String else { return "" }
        return String(detail.prefix(200))
    }

    /// A path segment percent-encoded (organization slugs are letters, digits and dashes; anything else is encoded).
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? text
    }
}
