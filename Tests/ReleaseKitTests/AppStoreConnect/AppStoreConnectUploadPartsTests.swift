import Crypto
import Foundation
import Rehearsal
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP
@testable import ReleaseSupport

/// The pieces of an upload that need no App Store Connect: byte ranges streamed from disk, the check that Apple's
/// upload operations cover the file, and build number arithmetic.
@Suite struct AppStoreConnectUploadPartsTests {
    static func file(_ size: Int) throws -> (path: String, bytes: Data) {
        var generator = SplitMix64(seed: UInt64(size))
        let bytes = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let path = TestPipelines.temporaryDirectory() + "/App.ipa"
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    static func operation(_ part: Int, _ offset: Int64, _ length: Int64, url: String = "http://127.0.0.1:9/part") -> UploadOperation {
        UploadOperation(
            method: "PUT", url: url, offset: offset, length: length, requestHeaders: [.init(name: "Content-Type", value: "application/octet-stream")],
            expiration: nil, partNumber: part)
    }

    @Test func aPartSendsExactlyItsRangeWithTheGivenHeadersAndNoToken() async throws {
        let (path, bytes) = try Self.file(300_001)
        let server = RecordingServer(configuration: .init(status: 200, body: ""))
        let url = try server.start()
        defer { server.stop() }
        let http = HTTPClient(configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 1)))
        var operation = Self.operation(2, 100_000, 150_001, url: url + "/upload/part2")
        operation.requestHeaders = [.init(name: "Content-Type", value: "application/octet-stream"), .init(name: "x-apple-upload-token", value: "opaque")]
        let seen = Recorder<Int64>()
        try await AppStoreConnectUploader.sendPart(operation, index: 1, file: path, http: http) { done in seen.append(done) }
        let request = try #require(server.requests.first)
        #expect(request.method == "PUT")
        #expect(request.bodyBytes == 150_001)
        #expect(request.bodySHA256 == SHA256.hash(data: bytes[100_000..<250_001]).map { String(format: "%02x", $0) }.joined())
        #expect(request.header("x-apple-upload-token") == "opaque")
        #expect(request.header("Content-Type") == "application/octet-stream")
        #expect(request.header("Authorization") == nil)
        #expect(seen.all.last == 150_001)
    }

    @Test func aRangeOutsideTheFileIsAClearErrorBeforeAnythingIsSent() async throws {
        let (path, _) = try Self.file(1000)
        let server = RecordingServer()
        let url = try server.start()
        defer { server.stop() }
        let http = HTTPClient(configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 1)))
        await #expect(throws: HTTPError.cannotReadBody(path: path, reason: "bytes 900..<1100 are outside the file's 1000 bytes")) {
            try await AppStoreConnectUploader.sendPart(Self.operation(1, 900, 200, url: url), index: 0, file: path, http: http) { _ in }
        }
        #expect(server.requests.isEmpty)
    }

    @Test func operationsMustCoverTheFileExactlyOnce() throws {
        try AppStoreConnectUploader.check([Self.operation(2, 500, 500), Self.operation(1, 0, 500)], size: 1000)
        #expect(throws: AppStoreConnectError.badUploadOperation("the reserved file has no upload operations")) {
            try AppStoreConnectUploader.check([], size: 1000)
        }
        #expect(throws: AppStoreConnectError.badUploadOperation("part 2 covers bytes 600..<1000, expected to start at 500 within 1000")) {
            try AppStoreConnectUploader.check([Self.operation(1, 0, 500), Self.operation(2, 600, 400)], size: 1000)
        }
        #expect(throws: AppStoreConnectError.badUploadOperation("the parts cover 900 of the file's 1000 bytes")) {
            try AppStoreConnectUploader.check([Self.operation(1, 0, 900)], size: 1000)
        }
        var noURL = Self.operation(1, 0, 1000)
        noURL.url = nil
        #expect(throws: AppStoreConnectError.badUploadOperation("part 1 has no URL")) {
            try AppStoreConnectUploader.check([noURL], size: 1000)
        }
    }

    @Test func expiredOperationsAreNoticedAMinuteEarly() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var soon = Self.operation(1, 0, 1)
        soon.expiration = Timestamp.iso8601(now.addingTimeInterval(30))
        var later = Self.operation(1, 0, 1)
        later.expiration = Timestamp.iso8601(now.addingTimeInterval(600))
        #expect(AppStoreConnectUploader.hasExpired([soon], now: now))
        #expect(!AppStoreConnectUploader.hasExpired([later], now: now))
        #expect(!AppStoreConnectUploader.hasExpired([Self.operation(1, 0, 1)], now: now))
    }

    @Test func buildNumbersCompareNumericallyAndTheNextIsFreeInEveryVersion() {
        #expect(BuildNumbers(all: ["9", "10", "8"]).latest == "10")
        #expect(BuildNumbers(all: ["9", "10", "8"]).next == "11")
        #expect(BuildNumbers(all: ["3.0.1.7", "3.0.1.10", "3.0.1.9"]).next == "3.0.1.11")
        #expect(BuildNumbers(all: ["1.9", "1.10"]).latest == "1.10")
        #expect(BuildNumbers(all: []).latest == nil)
        #expect(BuildNumbers(all: []).next == "1")
        #expect(BuildNumbers(all: ["beta", "4"]).next == "5")
    }
}
