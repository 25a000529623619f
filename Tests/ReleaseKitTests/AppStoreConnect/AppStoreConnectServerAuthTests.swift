import Crypto
import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP

/// The stand-in checks tokens as Apple documents them and answers anything else with Apple's 401.
@Suite("LocalAppStoreConnectServer authentication")
struct AppStoreConnectServerAuthTests {
    typealias Fixture = AppStoreConnectTestFixture

    /// A token with `header` and `payload` as given, signed with `key` (the fixture's unless another).
    private func token(header: [String: Any], payload: [String: Any], key: P256.Signing.PrivateKey) throws -> String {
        func encode(_ object: [String: Any]) throws -> String {
            AppStoreConnectToken.base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let input = try encode(header) + "." + encode(payload)
        return "Bearer " + input + "." + AppStoreConnectToken.base64URL(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    @Test func acceptsApplesTokensAndRefusesEveryOtherWithApples401() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let fixture = try Fixture(pem: privateKey.pemRepresentation)
        let now = Int(Date().timeIntervalSince1970)
        let header: [String: Any] = ["alg": "ES256", "kid": Fixture.keyID, "typ": "JWT"]
        let payload: [String: Any] = ["iss": Fixture.issuer, "iat": now, "exp": now + 1200, "aud": "appstoreconnect-v1"]
        func with(_ changes: [String: Any], in base: [String: Any]) -> [String: Any] { base.merging(changes) { _, new in new } }

        #expect(try await fixture.raw("GET", "/v1/apps", authorization: try token(header: header, payload: payload, key: privateKey)).status == 200)
        #expect(try await fixture.raw("GET", "/v1/apps").status == 200, "ReleaseKit's own tokens pass")
        let refused: [(String, String?)] = [
            ("no token", nil),
            ("not a bearer", "Basic dXNlcjpwYXNz"),
            ("expired", try token(header: header, payload: with(["iat": now - 1500, "exp": now - 300], in: payload), key: privateKey)),
            ("lives too long", try token(header: header, payload: with(["exp": now + 3600], in: payload), key: privateKey)),
            ("issued in the future", try token(header: header, payload: with(["iat": now + 600, "exp": now + 1200], in: payload), key: privateKey)),
            ("wrong audience", try token(header: header, payload: with(["aud": "appstoreconnect-v2"], in: payload), key: privateKey)),
            ("wrong issuer", try token(header: header, payload: with(["iss": UUID().uuidString], in: payload), key: privateKey)),
            ("unknown key", try token(header: with(["kid": "OTHERKEY00"], in: header), payload: payload, key: privateKey)),
            ("not ES256", try token(header: with(["alg": "HS256"], in: header), payload: payload, key: privateKey)),
            ("not a JWT", try token(header: with(["typ": "JOSE"], in: header), payload: payload, key: privateKey)),
            ("another key's signature", try token(header: header, payload: payload, key: P256.Signing.PrivateKey())),
            ("no signature", "Bearer " + (try token(header: header, payload: payload, key: privateKey)).dropFirst(7).split(separator: ".").prefix(2).joined(separator: ".") + "."),
        ]
        for (reason, authorization) in refused {
            let request = HTTPRequest(method: "GET", url: fixture.url + "/v1/apps", headers: authorization.map { [("Authorization", $0)] } ?? [])
            let response = try await HTTPClient(configuration: .init(retryPolicy: .once)).send(request)
            #expect(response.status == 401, "\(reason)")
            let body = try fixture.object(response.body)
            let entry = try #require((body["errors"] as? [[String: Any]])?.first)
            #expect(entry["code"] as? String == "NOT_AUTHORIZED" && entry["status"] as? String == "401", "\(reason)")
            #expect(entry["title"] as? String == "Authentication credentials are missing or invalid.")
            #expect(
                entry["detail"] as? String
                    == "Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens"
            )
            #expect(UUID(uuidString: entry["id"] as? String ?? "") != nil)
            if let authorization { #expect(!response.text.contains(authorization.dropFirst(7)), "the answer never echoes the token") }
        }
        let failures = fixture.server.exchanges().compactMap(\.authenticationFailure)
        #expect(failures.contains("the token has expired") && failures.contains("aud is not appstoreconnect-v1"))
        #expect(failures.contains("the signature does not verify") && failures.contains("unknown kid"))
        #expect(fixture.server.summary().isEmpty, "nothing about tokens reaches the summary")
        fixture.expectContract()
    }

    @Test func aKeyThatIsNotAKeyIsRefusedAtStart() throws {
        #expect(throws: LocalServerError.self) {
            _ = try LocalAppStoreConnectServer(
                configuration: .init(
                    storageDirectory: TestTemporary.root + "/release-asc-\(UUID().uuidString)",
                    keys: [.init(keyID: "K", issuerID: Fixture.issuer, publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----")]))
        }
    }
}
