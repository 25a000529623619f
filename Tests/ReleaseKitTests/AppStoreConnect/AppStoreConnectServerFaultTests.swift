import Foundation
import Rehearsal
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP
@testable import ReleaseSupport

/// Each fault the stand-in injects, and what a client built on ReleaseKit's HTTP layer sees of it.
@Suite("LocalAppStoreConnectServer faults")
struct AppStoreConnectServerFaultTests {
    typealias Fixture = AppStoreConnectTestFixture

    private func attributes(_ document: [String: Any]) -> [String: Any] {
        (document["data"] as? [String: Any])?["attributes"] as? [String: Any] ?? [:]
    }

    @Test func partsThatFailOrAreCutOffAreSentAgainAndCountOnlyOnce() async throws {
        let fixture = try Fixture(partSize: 64 << 10)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 200 << 10)
        let (_, file) = try await fixture.reserve(appID: appID, path: path)
        fixture.server.addFault(.partStatus(500, part: 2, times: 2))
        fixture.server.addFault(.partReset(afterBytes: 10_000, part: 3))
        let responses = try await fixture.sendParts(file, from: path)
        #expect(responses.map(\.status) == [200, 200, 200, 200])
        #expect(fixture.server.pendingFaults.isEmpty)
        let parts = fixture.server.exchanges().filter { $0.operationID == nil }
        #expect(parts.map(\.status) == [200, 500, 500, 200, 0, 200, 200])
        let fileID = try #require((file["data"] as? [String: Any])?["id"] as? String)
        let sha256 = try await FileDigest.sha256(ofFile: path).hex
        let committed = try fixture.object(try await fixture.client().send("PATCH", "/v1/buildUploadFiles/\(fileID)", json: fixture.commitBody(fileID, hash: sha256)))
        #expect((attributes(committed)["assetDeliveryState"] as? [String: Any])?["state"] as? String == "UPLOAD_COMPLETE")
        #expect(fixture.server.uploadedByteCount() == Int64(200 << 10) + 2 * (64 << 10) + 10_000, "every byte received is counted, the retried ones too")
    }

    @Test func rateLimitsAndServerErrorsAreRetriedAfterTheirWait() async throws {
        let fixture = try Fixture()
        fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        fixture.server.addFault(.tooManyRequests(operationID: "apps_getCollection", retryAfter: 7))
        fixture.server.addFault(.status(503, operationID: "apps_getCollection"))
        let client = try fixture.client()
        let apps = try fixture.object(try await client.send("GET", "/v1/apps?filter%5BbundleId%5D=\(Fixture.bundleID)"))
        #expect((apps["data"] as? [Any])?.count == 1)
        #expect(fixture.server.exchanges().map(\.status) == [429, 503, 200])
        #expect(fixture.delays.all.first == .seconds(7), "Retry-After is honoured")
        let limited = try fixture.object(try #require(fixture.server.exchanges().first?.responseBody))
        #expect(((limited["errors"] as? [[String: Any]])?.first)?["code"] as? String == "RATE_LIMIT_EXCEEDED")
        fixture.expectContract(skipUndocumented: true)
    }

    @Test func anInjected401IsTheKeyNotBeingAccepted() async throws {
        let fixture = try Fixture()
        fixture.server.addFault(.unauthorized(operationID: "builds_getCollection"))
        let client = try fixture.client()
        _ = try await client.send("GET", "/v1/apps")
        await #expect {
            _ = try await client.send("GET", "/v1/builds")
        } throws: { error in
            guard case .unauthorized(let entries)? = error as? AppStoreConnectError else { return false }
            return entries.first?.code == "NOT_AUTHORIZED"
        }
        #expect(try await client.send("GET", "/v1/builds").count > 0, "only as often as asked")
    }

    @Test func processingCanFailWithApplesErrors() async throws {
        let fixture = try Fixture(processingPolls: 1)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        fixture.server.addFault(.processingFailure([AppStoreConnectFault.versionNotHigher]))
        let client = try fixture.client()
        let path = try fixture.file(size: 300)
        let (uploadID, file) = try await fixture.reserve(appID: appID, path: path)
        _ = try await fixture.sendParts(file, from: path)
        let fileID = try #require((file["data"] as? [String: Any])?["id"] as? String)
        _ = try await client.send("PATCH", "/v1/buildUploadFiles/\(fileID)", json: fixture.commitBody(fileID, hash: nil))
        let failed = try await fixture.poll("/v1/buildUploads/\(uploadID)") { document in
            ((self.attributes(document)["state"] as? [String: Any])?["state"] as? String) != "PROCESSING"
        }
        let state = try #require(attributes(failed)["state"] as? [String: Any])
        #expect(state["state"] as? String == "FAILED")
        let errors = try #require(state["errors"] as? [[String: String]])
        #expect(errors == [["code": "ITMS-90062", "description": AppStoreConnectFault.versionNotHigher.description]])
        #expect(try await client.all(LocalAppStoreConnectServerTests.Listed.self, "/v1/builds?filter%5Bapp%5D=\(appID)").isEmpty, "a failed upload makes no build")
        #expect(fixture.server.summary().first?.hasPrefix("upload com.example.demo 1.4.0 (42) IOS FAILED  Demo.ipa 300 B  ITMS-90062: This bundle is invalid.") == true)
        // The same build number can be uploaded again after a failure.
        let (second, _) = try await fixture.reserve(appID: appID, path: path)
        #expect(second != uploadID)
        fixture.expectContract()
    }
}
