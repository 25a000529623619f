import Foundation
import ReleaseHTTP

/// Where steps reach each remote ``Service``: the real endpoints, or local stand-ins during a rehearsal.
///
/// API services (`github`, `appstore`) have a base URL that an override replaces. Generic services (`http`,
/// `slack`) are called at whatever URL a pipeline gives; an override sends such a URL to the stand-in with the
/// original host kept as the first path segment (`https://hooks.slack.com/services/T/B/X` becomes
/// `http://127.0.0.1:PORT/hooks.slack.com/services/T/B/X`), so the stand-in can say what was called.
///
/// When ``isolated`` (a rehearsal), a service without an override cannot be reached at all: a step that asks
/// for it is skipped with a message, and every HTTP client handed out refuses hosts other than the loopback.
package struct ServiceEndpoints: Sendable, Equatable {
    /// Base URLs of stand-ins, per service.
    package var overrides: [Service: String]
    /// Whether nothing may leave the machine.
    package var isolated: Bool

    package init(overrides: [Service: String] = [:], isolated: Bool = false) {
        self.overrides = overrides.mapValues { Self.trimmed($0) }
        self.isolated = isolated
    }

    /// The real services, as configured.
    package static let live = ServiceEndpoints()

    /// The hosts an isolated run may connect to.
    package static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// The base URL to use for an API service: the stand-in's, or `configured` when there is no override.
    /// - Throws: ``StepError/unavailable(_:)`` in an isolated run without a stand-in for `service`.
    package func baseURL(_ service: Service, configured: String) throws -> String {
        if let override = overrides[service] { return override }
        if isolated { throw StepError.unavailable(Self.noStandIn(service)) }
        return Self.trimmed(configured)
    }

    /// The URL to call for a generic service: `url` itself, or the stand-in's URL carrying `url`'s host and path.
    /// - Throws: ``StepError/unavailable(_:)`` in an isolated run without a stand-in for `service`.
    package func url(_ service: Service, for url: String) throws -> String {
        guard let override = overrides[service] else {
            if isolated { throw StepError.unavailable(Self.noStandIn(service)) }
            return url
        }
        guard let components = URLComponents(string: url), let host = components.hostWithoutIDNA, !host.isEmpty else { return override }
        var target = override + "/" + host + (components.port.map { ":\($0)" } ?? "") + components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        return target
    }

    private static func noStandIn(_ service: Service) -> String {
        "this rehearsal has no local stand-in for '\(service.rawValue)', so nothing was sent"
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
