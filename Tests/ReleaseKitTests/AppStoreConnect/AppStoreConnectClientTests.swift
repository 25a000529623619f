import Crypto
import Foundation
import Rehearsal
import Synchronization
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP

/// The client's contract with the API: a valid token on every request, only to the API host, and Apple's errors
/// rendered one readable line each.
@Suite struct AppStoreConnectClientTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    private func client(_ url: String, clock: @escaping @Sendable () -> Date = Date.init) throws -> (AppStoreConnectClient, AppStoreConnectKey) {
        let key = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: P256.Signing.PrivateKey().pemRepresentation)
        return (try AppStoreConnectClient(apiURL: url + "/", key: key, http: HTTPClient(configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 1))), clock: clock), key)
    }

    @Test func everyRequestCarriesAValidBearerToken() async throws {
        let server = RecordingServer(configuration: .init(body: #"{"data": []}"#))
        let url = try server.start()
        defer { server.stop() }
        let (client, key) = try client(url)
        _ = try await client.send("GET", "/v1/apps?filter%5BbundleId%5D=com.example.demo")
        let request = try #require(server.requests.first)
        #expect(request.target == "/v1/apps?filter%5BbundleId%5D=com.example.demo")
        let authorization = try #require(request.header("Authorization"))
        #expect(authorization.hasPrefix("Bearer "))
        let pieces = authorization.dropFirst(7).split(separator: ".")
        try #require(pieces.count == 3)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: try key.publicKeyPEM)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(AppStoreConnectToken.decodeBase64URL(pieces[2])))
        #expect(publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)))
    }

    @Test func aTokenIsRenewedBeforeItExpires() async throws {
        let server = RecordingServer(configuration: .init(body: "{}"))
        let url = try server.start()
        defer { server.stop() }
        let clock = Clock()
        let (client, _) = try client(url, clock: { clock.now })
        _ = try await client.send("GET", "/v1/builds/1")
        clock.advance(10 * 60)
        _ = try await client.send("GET", "/v1/builds/1")
        clock.advance(9 * 60 + 30)  // 19.5 minutes after the first token: less than a minute left
        _ = try await client.send("GET", "/v1/builds/1")
        let tokens = server.requests.compactMap { $0.header("Authorization") }
        #expect(tokens.count == 3)
        #expect(tokens[0] == tokens[1], "a token is reused while it has time left")
        #expect(tokens[1] != tokens[2], "and renewed before it runs out")
    }

    @Test func applesErrorsAreRenderedOneLineEach() async throws {
        let body = #"""
            {"errors": [{"id": "1", "status": "409", "code": "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                         "title": "The provided entity includes an attribute with a value that has already been used",
                         "detail": "The bundle version must be higher than the previously uploaded version: '4321'.",
                         "source": {"pointer": "/data/attributes/cfBundleVersion"}},
                        {"status": "409", "code": "ENTITY_ERROR", "title": "Second problem", "detail": "Second problem",
                         "source": {"parameter": "filter[app]"}}]}
            """#
        let server = RecordingServer(configuration: .init(status: 409, body: body))
        let url = try server.start()
        defer { server.stop() }
        let (client, _) = try client(url)
        do {
            _ = try await client.send("POST", "/v1/buildUploads", json: Data("{}".utf8))
            Issue.record("a 409 was accepted")
        } catch {
            #expect(
                "\(error)" == """
                    App Store Connect answered POST /v1/buildUploads with HTTP 409:
                      409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE: The provided entity includes an attribute with a value that has already been used (The bundle version must be higher than the previously uploaded version: '4321'.) at /data/attributes/cfBundleVersion
                      409 ENTITY_ERROR: Second problem (parameter filter[app])
                    """)
        }
    }

    @Test func a401SaysTheKeyWasNotAccepted() async throws {
        let body =
            #"{"errors": [{"status": "401", "code": "NOT_AUTHORIZED", "title": "Authentication credentials are missing or invalid.", "detail": "Provide a properly configured and signed bearer token, and make sure that it has not expired."}]}"#
        let server = RecordingServer(configuration: .init(status: 401, body: body))
        let url = try server.start()
        defer { server.stop() }
        let (client, _) = try client(url)
        await #expect(
            throws: AppStoreConnectError.unauthorized(errors: [
                .init(
                    status: "401", code: "NOT_AUTHORIZED", title: "Authentication credentials are missing or invalid.",
                    detail: "Provide a properly configured and signed bearer token, and make sure that it has not expired.")
            ])
        ) {
            _ = try await client.send("GET", "/v1/apps")
        }
    }
}

/// A clock a test moves by hand.
private final class Clock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
