import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseHTTP
@testable import ReleaseSentry

/// The Sentry client against the local Sentry: the request of the contract, fractions made percents, nulls kept,
/// and Sentry's refusals told apart from its absence.
@Suite struct SentryClientTests {
    static let token = "sntrys-test-token-0123456789"

    static func server(_ series: [SentryReleaseHealth]) throws -> LocalSentryServer {
        let server = try LocalSentryServer(configuration: .init(token: token, series: series))
        try server.start()
        return server
    }

    static func client(_ server: LocalSentryServer, token: String = token) throws -> SentryClient {
        // Retries without waiting: the refused connection of a stopped server is retried like any other.
        let http = HTTPClient(
            configuration: .init(credentialHosts: ["127.0.0.1"], retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), jitter: false)))
        return try SentryClient(baseURL: server.url, organization: "acme", project: "ios", token: token, http: http)
    }

    @Test func healthIsReadInPercentAndNullsStayUnknown() async throws {
        let server = try Self.server([
            SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: 99.25),
            SentryReleaseHealth(sessions: 0, crashFreeSessions: 99, crashFreeUsers: 99),
        ])
        defer { server.stop() }
        let client = try Self.client(server)
        let first = try await client.health(release: "com.example.demo@1.4.0+42")
        #expect(first.sessions == 1500)
        #expect(abs((first.crashFreeSessions ?? 0) - 98.7) < 1e-9 && abs((first.crashFreeUsers ?? 0) - 99.25) < 1e-9)
        let second = try await client.health(release: "com.example.demo@1.4.0+42")
        #expect(second == SentryReleaseHealth(sessions: 0, crashFreeSessions: nil, crashFreeUsers: nil))
        #expect(server.releases == ["com.example.demo@1.4.0+42", "com.example.demo@1.4.0+42"])
        let request = try #require(server.requests.first)
        #expect(request.headers.first { $0.name.lowercased() == "authorization" }?.value == "Bearer \(Self.token)")
    }

    @Test func aRefusedTokenAndAnAbsentSentryAreDifferentErrors() async throws {
        let server = try Self.server([SentryReleaseHealth(sessions: 10, crashFreeSessions: 100, crashFreeUsers: 100)])
        defer { server.stop() }
        await #expect(throws: SentryError.refused(status: 401, detail: "Invalid token")) {
            _ = try await Self.client(server, token: "sntrys-wrong").health(release: "a@1")
        }
        server.setUnavailable(true)
        do {
            _ = try await Self.client(server).health(release: "a@1")
            Issue.record("no error")
        } catch let error as SentryError {
            guard case .unreachable(let reason) = error else { throw error }
            #expect(reason.hasPrefix("HTTP 503 from "))
        }
        server.stop()
        do {
            _ = try await Self.client(server).health(release: "a@1")
            Issue.record("no error")
        } catch let error as SentryError {
            guard case .unreachable = error else { throw error }
        }
    }

    @Test func aBaseURLWithCredentialsIsRefused() {
        #expect(throws: SentryError.invalidInput("'https://sentry.io' is not an http(s) URL without credentials")) {
            try SentryClient(baseURL: "https://user:secret@sentry.io", organization: "a", project: "b", token: "t", http: HTTPClient())
        }
    }

    /// The stand-in's answer and the client's request follow Sentry's own OpenAPI description.
    @Test(.needsShared(.sentry)) func theExchangeFollowsSentrysContract() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedReference.path(.sentry)))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let contract = AppStoreConnectContract(document: .init(document))
        let server = try Self.server([SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: nil)])
        defer { server.stop() }
        let client = try Self.client(server)
        _ = try await client.health(release: "com.example.demo@1.4.0+42")
        let request = try #require(server.requests.first)
        let body = try await Self.raw(client.sessionsURL(release: "com.example.demo@1.4.0+42"))
        #expect(contract.validate(operationId: "getOrganizationSessions", status: 200, responseBody: body).isEmpty)
        let operation = try #require(contract.operations["getOrganizationSessions"])
        let parameters = Set((operation.operation["parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        let sent = Set((URLComponents(string: "http://h" + request.target)?.queryItems ?? []).map(\.name))
        #expect(sent.isSubset(of: parameters), "\(sent.subtracting(parameters))")
    }

    static func raw(_ url: String) async throws -> Data {
        let http = HTTPClient(configuration: .init(credentialHosts: ["127.0.0.1"]))
        return try await http.send(HTTPRequest(url: url, authorization: "Bearer \(token)")).body
    }
}
