import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseHTTP
@testable import ReleaseSupport

/// The stand-in for plain HTTP endpoints, through the real libcurl client.
@Suite("RecordingServer")
struct RecordingServerTests {
    @Test func recordsAPostWithItsBodyDigestAndAnswers200() async throws {
        let server = RecordingServer()
        let url = try server.start()
        defer { server.stop() }
        let directory = TestTemporary.root + "/release-recording-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/Demo.app.dSYM.zip"
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))

        let response = try await HTTPClient().send(
            HTTPRequest(
                method: "POST", url: url + "/api/v1/dsyms/upload?app=demo&build=4321",
                headers: [(name: "Content-Type", value: "application/zip"), (name: "X-Api-Key", value: "k")],
                body: .file(path: path)
            ))

        #expect(response.status == 200)
        #expect(response.text == "{}")
        #expect(response.header("Content-Type") == "application/json")
        let requests = server.requests
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/api/v1/dsyms/upload?app=demo&build=4321")
        #expect(request.path == "/api/v1/dsyms/upload")
        #expect(request.query == "app=demo&build=4321")
        #expect(request.header("x-api-key") == "k")
        #expect(request.header("Content-Length") == "300000")
        #expect(request.bodyBytes == 300_000)
        #expect(request.bodySHA256 == (try await FileDigest.sha256(ofFile: path).hex))
        #expect(request.status == 200)
        #expect(request.body == nil, "a body above keptBodyLimit is only counted and hashed")
        #expect(
            server.summary() == [
                "POST /api/v1/dsyms/upload?app=demo&build=4321  300000 bytes  200  sha256:\(try await FileDigest.sha256(ofFile: path).hex)"
            ])
    }

    @Test func keepsASmallBodyByteForByte() async throws {
        let server = RecordingServer()
        let url = try server.start()
        defer { server.stop() }
        let message = #"{"text":"ios-release 3.0.0 succeeded · ✔"}"#
        _ = try await HTTPClient().send(HTTPRequest(method: "POST", url: url + "/hooks.slack.com/services/T/B/X", body: .data(Data(message.utf8))))
        #expect(server.requests.first?.body == Array(message.utf8))
    }

    @Test func answersTheConfiguredStatusAndBodyToAnyMethod() async throws {
        let server = RecordingServer(configuration: .init(status: 500, body: #"{"ok":false}"#))
        let url = try server.start()
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(retryPolicy: .once))

        let put = try await client.send(HTTPRequest(method: "PUT", url: url + "/a", body: .data(Data("hello".utf8))))
        let get = try await client.send(HTTPRequest(url: url + "/b/c"))

        #expect(put.status == 500)
        #expect(put.text == #"{"ok":false}"#)
        #expect(get.status == 500)
        #expect(server.requests.map(\.method) == ["PUT", "GET"])
        #expect(server.requests.map(\.target) == ["/a", "/b/c"])
        #expect(server.requests.map(\.bodyBytes) == [5, 0])
        #expect(server.requests.first?.bodySHA256 == FileDigest.sha256(of: Data("hello".utf8)))
        server.clearRequests()
        #expect(server.requests.isEmpty)
    }

    @Test func stopRefusesConnectionsAtOnce() async throws {
        let server = RecordingServer()
        let url = try server.start()
        server.stop()
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(2), retryPolicy: .once))
        await #expect(throws: HTTPError.self) {
            _ = try await client.send(HTTPRequest(url: url + "/x"))
        }
        #expect(server.requests.isEmpty)
    }
}
