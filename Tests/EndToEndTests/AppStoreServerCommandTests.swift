import Crypto
import Foundation
import ReleaseAppStoreConnect
import ReleaseHTTP
import ReleaseSupport
import Testing

/// `release appstore-server` as its own process: it prints its URL, accepts the given key's tokens, streams a
/// 256 MiB part to disk without its memory growing with it, and stops on SIGTERM.
@Suite("release appstore-server (end to end)", .serialized)
struct AppStoreServerCommandTests {
    static let binary = ReleaseBinary.path
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func servesAnUploadWithFlatMemoryAndStopsOnSIGTERM() async throws {
        let directory = ReleaseBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let privateKey = P256.Signing.PrivateKey()
        try privateKey.publicKey.pemRepresentation.write(toFile: directory + "/key.pem", atomically: true, encoding: .utf8)
        let size: Int64 = 256 << 20
        let file = directory + "/Big.ipa"
        try ReleaseBinary.sparseFile(file, size: size)

        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.binary)
        server.arguments = [
            "appstore-server", "--storage", directory + "/server", "--key-id", "E2EKEY0001", "--issuer-id", Self.issuer,
            "--public-key", directory + "/key.pem", "--part-size", "\(size)", "--processing-polls", "0", "--auto-create",
        ]
        let out = Pipe()
        let err = Pipe()
        server.standardOutput = out
        server.standardError = err
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        let url = ReleaseBinary.firstLine(of: out)
        #expect(url.hasPrefix("http://127.0.0.1:"))

        let key = try AppStoreConnectKey(id: "E2EKEY0001", issuer: Self.issuer, pem: privateKey.pemRepresentation)
        let client = try AppStoreConnectClient(apiURL: url, key: key, http: HTTPClient())
        func object(_ data: Data) throws -> [String: Any] { try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]) }
        func id(_ document: [String: Any]) -> String { (document["data"] as? [String: Any])?["id"] as? String ?? "" }
        let apps = try object(try await client.send("GET", "/v1/apps?filter%5BbundleId%5D=com.example.big"))
        let appID = try #require((apps["data"] as? [[String: Any]])?.first?["id"] as? String)
        let upload = try object(
            try await client.send(
                "POST", "/v1/buildUploads",
                json: Data(
                    #"""
                    {"data": {"type": "buildUploads", "attributes": {"cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "IOS"},
                      "relationships": {"app": {"data": {"type": "apps", "id": "\#(appID)"}}}}}
                    """#.utf8)))
        let reserved = try object(
            try await client.send(
                "POST", "/v1/buildUploadFiles",
                json: Data(
                    #"""
                    {"data": {"type": "buildUploadFiles", "attributes": {"fileName": "Big.ipa", "fileSize": \#(size), "uti": "com.apple.ipa", "assetType": "ASSET"},
                      "relationships": {"buildUpload": {"data": {"type": "buildUploads", "id": "\#(id(upload))"}}}}}
                    """#.utf8)))
        let attributes = (reserved["data"] as? [String: Any])?["attributes"] as? [String: Any]
        let operation = try #require((attributes?["uploadOperations"] as? [[String: Any]])?.first)
        let headers = (operation["requestHeaders"] as? [[String: String]] ?? []).map { (name: $0["name"] ?? "", value: $0["value"] ?? "") }

        let before = try GitHubServerStreamingTests.memory(of: server.processIdentifier, "VmRSS")
        let part = try await HTTPClient().send(
            HTTPRequest(
                method: "PUT", url: try #require(operation["url"] as? String), headers: headers, body: .file(path: file)))
        #expect(part.status == 200, "\(part.text)")
        let peak = try GitHubServerStreamingTests.memory(of: server.processIdentifier, "VmHWM")
        #expect(peak - before < 32 << 20, "server peak RSS grew by \(peak - before) bytes for a \(size)-byte part")

        let sha256 = try await FileDigest.sha256(ofFile: file).hex
        let commit =
            #"{"data": {"type": "buildUploadFiles", "id": "\#(id(reserved))", "attributes": {"uploaded": true, "sourceFileChecksums": {"file": {"hash": "\#(sha256)", "algorithm": "SHA_256"}}}}}"#
        _ = try await client.send("PATCH", "/v1/buildUploadFiles/\(id(reserved))", json: Data(commit.utf8))
        let done = try object(try await client.send("GET", "/v1/buildUploads/\(id(upload))"))
        let state = ((done["data"] as? [String: Any])?["attributes"] as? [String: Any])?["state"] as? [String: Any]
        #expect(state?["state"] as? String == "COMPLETE")

        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr == "appstore-server: stopped\n")
    }
}
