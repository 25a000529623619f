import Crypto
import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP

/// A local App Store Connect stand-in in a temporary folder, an API key it accepts, clients pointed at it with
/// fast retries, and helpers for raw requests, part uploads and checking every exchange against Apple's contract.
final class AppStoreConnectTestFixture: Sendable {
    static let keyID = "2X9R4HXF34"
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleID = "com.example.demo"

    let directory: String
    let key: AppStoreConnectKey
    let server: LocalAppStoreConnectServer
    let url: String
    let delays = Recorder<Duration>()

    init(
        partSize: Int = 1000, processingPolls: Int = 1, autoCreate: Bool = false, defaultPageLimit: Int = 50,
        directory: String? = nil, pem: String? = nil
    ) throws {
        self.directory = directory ?? TestTemporary.root + "/release-asc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.directory + "/files", withIntermediateDirectories: true)
        key = try AppStoreConnectKey(id: Self.keyID, issuer: Self.issuer, pem: pem ?? P256.Signing.PrivateKey().pemRepresentation)
        server = try LocalAppStoreConnectServer(
            configuration: .init(
                storageDirectory: self.directory + "/server",
                keys: [.init(keyID: Self.keyID, issuerID: Self.issuer, publicKeyPEM: try key.publicKeyPEM)],
                partSize: partSize, processingPolls: processingPolls, autoCreate: autoCreate, defaultPageLimit: defaultPageLimit
            ))
        url = try server.start()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Keeps the storage folder (for a restart test) and stops the server.
    func stop() { server.stop() }

    func retryPolicy(attempts: Int = 4) -> RetryPolicy {
        let delays = self.delays
        return RetryPolicy(
            maxAttempts: attempts, baseDelay: .milliseconds(10), maxDelay: .seconds(30), jitter: false,
            sleep: { delay in
                delays.append(delay)
                try await Task.sleep(for: .milliseconds(2))
            }
        )
    }

    /// An HTTP client that may send credentials to the stand-in (for raw requests).
    func http(attempts: Int = 4) -> HTTPClient {
        HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(5), stallTimeout: .seconds(2), credentialHosts: ["127.0.0.1"], retryPolicy: retryPolicy(attempts: attempts)))
    }

    func client(attempts: Int = 4) throws -> AppStoreConnectClient {
        try AppStoreConnectClient(apiURL: url, key: key, http: http(attempts: attempts))
    }

    /// `Bearer <a fresh valid token>`.
    func bearer() throws -> String {
        "Bearer " + (try AppStoreConnectToken(key: key, now: Date()).text)
    }

    /// Sends a request with a valid token (or `authorization`), once, and returns whatever came back.
    func raw(_ method: String, _ path: String, json: String? = nil, authorization: String? = nil, attempts: Int = 1) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: method, url: url + path, headers: json == nil ? [] : [("Content-Type", "application/json")],
            body: json.map { .data(Data($0.utf8)) } ?? .empty, authorization: try authorization ?? bearer()
        )
        return try await http(attempts: attempts).send(request)
    }

    /// A JSON object from a response body.
    func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A file of `size` pseudo-random bytes.
    func file(size: Int, name: String = "Demo.ipa") throws -> String {
        let path = directory + "/files/" + name
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Sends every upload operation of a `buildUploadFiles` document with exactly its headers, no token.
    func sendParts(_ fileDocument: [String: Any], from path: String, attempts: Int = 4) async throws -> [HTTPResponse] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let attributes = try #require((fileDocument["data"] as? [String: Any])?["attributes"] as? [String: Any])
        let operations = try #require(attributes["uploadOperations"] as? [[String: Any]])
        var responses: [HTTPResponse] = []
        for operation in operations {
            let offset = try #require((operation["offset"] as? NSNumber)?.intValue)
            let length = try #require((operation["length"] as? NSNumber)?.intValue)
            let headers = (operation["requestHeaders"] as? [[String: String]] ?? []).map { (name: $0["name"] ?? "", value: $0["value"] ?? "") }
            let request = HTTPRequest(
                method: operation["method"] as? String ?? "PUT", url: try #require(operation["url"] as? String), headers: headers,
                body: .data(data.subdata(in: offset..<(offset + length))))
            responses.append(try await http(attempts: attempts).send(request))
        }
        return responses
    }

    // MARK: A whole upload

    /// Creates the app's build upload and its file; returns (upload id, file document).
    func reserve(appID: String, version: String = "1.4.0", build: String = "42", path: String) async throws -> (String, [String: Any]) {
        let client = try client()
        let upload = try object(
            try await client.send(
                "POST", "/v1/buildUploads",
                json: Data(
                    #"""
                    {"data": {"type": "buildUploads", "attributes": {"cfBundleShortVersionString": "\#(version)", "cfBundleVersion": "\#(build)", "platform": "IOS"},
                      "relationships": {"app": {"data": {"type": "apps", "id": "\#(appID)"}}}}}
                    """#.utf8)))
        let uploadID = try #require((upload["data"] as? [String: Any])?["id"] as? String)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let file = try object(
            try await client.send(
                "POST", "/v1/buildUploadFiles",
                json: Data(
                    #"""
                    {"data": {"type": "buildUploadFiles", "attributes": {"fileName": "\#((path as NSString).lastPathComponent)", "fileSize": \#(size), "uti": "com.apple.ipa", "assetType": "ASSET"},
                      "relationships": {"buildUpload": {"data": {"type": "buildUploads", "id": "\#(uploadID)"}}}}}
                    """#.utf8)))
        return (uploadID, file)
    }

    /// The commit request of file `id`, with a SHA-256 (or other) checksum.
    func commitBody(_ id: String, hash: String?, algorithm: String = "SHA_256") -> Data {
        let checksums = hash.map { #", "sourceFileChecksums": {"file": {"hash": "\#($0)", "algorithm": "\#(algorithm)"}}"# } ?? ""
        return Data(#"{"data": {"type": "buildUploadFiles", "id": "\#(id)", "attributes": {"uploaded": true\#(checksums)}}}"#.utf8)
    }

    /// Reads `path` (a build upload or build) until `attribute` leaves `waiting`; returns the final document.
    func poll(_ path: String, until done: ([String: Any]) -> Bool, limit: Int = 20) async throws -> [String: Any] {
        let client = try client()
        for _ in 0..<limit {
            let document = try object(try await client.send("GET", path))
            if done(document) { return document }
        }
        Issue.record("\(path) did not settle in \(limit) reads")
        return [:]
    }

    // MARK: The contract

    /// Checks every exchange with an operation: its request body decodes as the contract's generated request document
    /// (the type the client encodes it from, which needs no `../shared`), and, with Apple's contract beside the
    /// repository, its response and its query are what the contract allows. Statuses the contract leaves undocumented
    /// (injected 500s) are skipped when `skipUndocumented`; request bodies and queries are not checked when `requests` is
    /// false (tests of deliberately wrong requests). Without the contract (a clone with no `../shared` beside it, and
    /// RELEASE_REQUIRE_SHARED unset), responses and queries are not checked.
    func expectContract(skipUndocumented: Bool = false, requests: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let exchanges = server.exchanges().filter { $0.operationID != nil }
        #expect(!exchanges.isEmpty, "no API exchange to check", sourceLocation: sourceLocation)
        let contract = AppStoreConnectContract.shared != nil || SharedReference.isRequired
        for exchange in exchanges {
            let operation = exchange.operationID ?? ""
            var problems: [String] = []
            if requests, let typed = AppStoreConnectOperation(rawValue: operation), typed.requestDocument != nil,
                let problem = typed.requestProblem(exchange.requestBody ?? Data())
            {
                problems.append("request body: \(problem)")
            }
            if contract {
                var answer = AppStoreConnectContract.validate(operationId: operation, status: exchange.status, responseBody: exchange.responseBody)
                if skipUndocumented, answer.contains(where: { $0.message.contains("is not documented") }) { answer = [] }
                if requests { answer += AppStoreConnectContract.validateQuery(operationId: operation, target: exchange.target) }
                problems += answer.map(\.description)
            }
            #expect(problems.isEmpty, "\(exchange.method) \(exchange.target) → \(exchange.status): \(problems)", sourceLocation: sourceLocation)
        }
    }
}
