import Crypto
import Foundation
import Testing

@testable import ReleaseAppStoreConnect

/// API-key tokens exactly as Apple's "Generating Tokens for API Requests" fixes them, checked with the key's public
/// half by swift-crypto and, independently, by Python's `cryptography`.
@Suite struct AppStoreConnectTokenTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let pem = P256.Signing.PrivateKey().pemRepresentation

    private func parts(_ token: AppStoreConnectToken) throws -> (header: [String: Any], payload: [String: Any], signature: Data, input: String) {
        let pieces = token.text.split(separator: ".")
        try #require(pieces.count == 3)
        func object(_ piece: Substring) throws -> [String: Any] {
            let data = try #require(AppStoreConnectToken.decodeBase64URL(piece))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (
            try object(pieces[0]), try object(pieces[1]), try #require(AppStoreConnectToken.decodeBase64URL(pieces[2])),
            pieces[0] + "." + pieces[1]
        )
    }

    @Test func headerAndPayloadAreApplesFields() throws {
        let key = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: Self.pem)
        let now = Date(timeIntervalSince1970: 1_795_000_000.7)
        let token = try AppStoreConnectToken(key: key, now: now)
        let (header, payload, signature, _) = try parts(token)
        #expect(header as NSDictionary == ["alg": "ES256", "kid": "2X9R4HXF34", "typ": "JWT"] as NSDictionary)
        #expect(payload as NSDictionary == ["iss": Self.issuer, "iat": 1_795_000_000, "exp": 1_795_001_200, "aud": "appstoreconnect-v1"] as NSDictionary)
        #expect(signature.count == 64, "ES256 signatures are the raw r ‖ s, not DER")
        #expect(!token.text.contains("=") && !token.text.contains("+") && !token.text.contains("/"))
        #expect(token.isValid(at: now.addingTimeInterval(1000)))
        #expect(!token.isValid(at: now.addingTimeInterval(1150)), "a minute before expiry a new token is due")
    }

    @Test func lifetimeIsCappedAtTwentyMinutes() throws {
        let key = try AppStoreConnectKey(id: "K", issuer: Self.issuer, pem: Self.pem)
        let token = try AppStoreConnectToken(key: key, now: Date(timeIntervalSince1970: 1000), lifetime: 3600)
        #expect(token.expiresAt.timeIntervalSince(token.issuedAt) == 1200)
    }

    @Test func theSignatureVerifiesWithThePublicKey() throws {
        let key = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: Self.pem)
        let token = try AppStoreConnectToken(key: key, now: Date())
        let (_, _, signature, input) = try parts(token)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: try key.publicKeyPEM)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data(input.utf8)))
        let other = P256.Signing.PrivateKey().publicKey
        #expect(!other.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data(input.utf8)))
    }

    /// An oracle that shares no code with ours: Python's `cryptography` verifies the JWS signature.
    @Test(.enabled(if: pythonCryptography)) func pythonCryptographyAgrees() throws {
        let key = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: Self.pem)
        let token = try AppStoreConnectToken(key: key, now: Date())
        let script = """
            import base64, sys
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec, utils
            header, payload, signature = sys.argv[1].split('.')
            raw = base64.urlsafe_b64decode(signature + '=' * (-len(signature) % 4))
            der = utils.encode_dss_signature(int.from_bytes(raw[:32], 'big'), int.from_bytes(raw[32:], 'big'))
            key = serialization.load_pem_public_key(sys.argv[2].encode())
            key.verify(der, (header + '.' + payload).encode(), ec.ECDSA(hashes.SHA256()))
            print('valid')
            """
        let result = try runCommand(["python3", "-c", script, token.text, try key.publicKeyPEM])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "valid")
    }

    @Test func keysFromFilesAndFromSecretsWithoutLineBreaks() throws {
        let directory = TestPipelines.temporaryDirectory()
        try Self.pem.write(toFile: directory + "/AuthKey_2X9R4HXF34.p8", atomically: true, encoding: .utf8)
        _ = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: directory + "/AuthKey_2X9R4HXF34.p8")
        _ = try AppStoreConnectKey(id: "2X9R4HXF34", issuer: Self.issuer, pem: Self.pem.replacingOccurrences(of: "\n", with: "\\n"))
    }

    @Test func badKeysSayWhatIsWrongWithoutEchoingTheKey() {
        #expect(throws: AppStoreConnectKey.Problem.emptyKeyID) { try AppStoreConnectKey(id: " ", issuer: Self.issuer, pem: Self.pem) }
        #expect(throws: AppStoreConnectKey.Problem.invalidIssuer("team-1")) { try AppStoreConnectKey(id: "K", issuer: "team-1", pem: Self.pem) }
        let secretLooking = "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg"
        do {
            _ = try AppStoreConnectKey(id: "K", issuer: Self.issuer, pem: secretLooking)
            Issue.record("accepted a key without PEM armour")
        } catch {
            #expect("\(error)" == "the API key is not a .p8 private key (PEM text beginning with '-----BEGIN PRIVATE KEY-----'): no PEM header")
            #expect(!"\(error)".contains(secretLooking))
        }
    }
}

private let pythonCryptography: Bool = (try? runCommand(["python3", "-c", "import cryptography"]))?.status == 0
