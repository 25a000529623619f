import Crypto
import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP
@testable import ReleaseSupport

/// The App Store Connect stand-in driven through a whole upload and a TestFlight distribution, every answer
/// and request checked against Apple's contract.
@Suite("LocalAppStoreConnectServer")
struct LocalAppStoreConnectServerTests {
    typealias Fixture = AppStoreConnectTestFixture

    private func data(_ document: [String: Any]) -> [String: Any] { document["data"] as? [String: Any] ?? [:] }
    private func attributes(_ document: [String: Any]) -> [String: Any] { data(document)["attributes"] as? [String: Any] ?? [:] }
    private func uploadState(_ document: [String: Any]) -> String? { (attributes(document)["state"] as? [String: Any])?["state"] as? String }

    @Test func uploadsInPartsCommitsProcessesAndRefusesTheSameBuildAgain() async throws {
        let fixture = try Fixture(partSize: 1000, processingPolls: 2)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let client = try fixture.client()
        let apps = try fixture.object(try await client.send("GET", "/v1/apps?filter%5BbundleId%5D=\(Fixture.bundleID)"))
        #expect((apps["data"] as? [[String: Any]])?.first?["id"] as? String == appID)

        let path = try fixture.file(size: 2500)
        let (uploadID, file) = try await fixture.reserve(appID: appID, path: path)
        let operations = try #require(attributes(file)["uploadOperations"] as? [[String: Any]])
        #expect(operations.map { ($0["offset"] as? NSNumber)?.intValue } == [0, 1000, 2000])
        #expect(operations.map { ($0["length"] as? NSNumber)?.intValue } == [1000, 1000, 500])
        #expect(operations.map { ($0["partNumber"] as? NSNumber)?.intValue } == [1, 2, 3])
        #expect(operations.allSatisfy { ($0["url"] as? String)?.hasPrefix(fixture.url + "/upload/") == true && $0["method"] as? String == "PUT" })

        let responses = try await fixture.sendParts(file, from: path)
        #expect(responses.map(\.status) == [200, 200, 200])
        #expect(fixture.server.uploadedByteCount() == 2500)
        let parts = fixture.server.exchanges().filter { $0.operationID == nil }
        #expect(parts.count == 3 && parts.allSatisfy { $0.header("Authorization") == nil && $0.status == 200 })

        let fileID = try #require(data(file)["id"] as? String)
        let sha256 = try await FileDigest.sha256(ofFile: path).hex
        let committed = try fixture.object(try await client.send("PATCH", "/v1/buildUploadFiles/\(fileID)", json: fixture.commitBody(fileID, hash: sha256.uppercased())))
        #expect((attributes(committed)["assetDeliveryState"] as? [String: Any])?["state"] as? String == "UPLOAD_COMPLETE")
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.server.uploadPath(fileID))) == Data(contentsOf: URL(fileURLWithPath: path)))

        // Two reads see PROCESSING, the third COMPLETE with its build.
        var states: [String?] = []
        for _ in 0..<3 { states.append(uploadState(try fixture.object(try await client.send("GET", "/v1/buildUploads/\(uploadID)")))) }
        #expect(states == ["PROCESSING", "PROCESSING", "COMPLETE"])
        let upload = try fixture.object(try await client.send("GET", "/v1/buildUploads/\(uploadID)"))
        let buildID = try #require(((data(upload)["relationships"] as? [String: Any])?["build"] as? [String: Any]).flatMap { ($0["data"] as? [String: Any])?["id"] as? String })
        #expect(attributes(upload)["uploadedDate"] is String)
        let withBuild = try fixture.object(try await client.send("GET", "/v1/buildUploads/\(uploadID)?include=build"))
        #expect((withBuild["included"] as? [[String: Any]])?.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" } == ["builds/\(buildID)"])
        let build = try await fixture.poll("/v1/builds/\(buildID)") { self.attributes($0)["processingState"] as? String == "VALID" }
        #expect(attributes(build)["version"] as? String == "42")
        let fileAfter = try fixture.object(try await client.send("GET", "/v1/buildUploadFiles/\(fileID)"))
        #expect((attributes(fileAfter)["assetDeliveryState"] as? [String: Any])?["state"] as? String == "COMPLETE")
        #expect(attributes(fileAfter)["uploadOperations"] == nil, "a delivered file offers no more operations")

        // The build number is taken now: Apple's 409, pointing at cfBundleVersion.
        let again = try await fixture.raw(
            "POST", "/v1/buildUploads",
            json: """
                {"data": {"type": "buildUploads", "attributes": {"cfBundleShortVersionString": "1.4.0", "cfBundleVersion": "42", "platform": "IOS"},
                  "relationships": {"app": {"data": {"type": "apps", "id": "\(appID)"}}}}}
                """)
        #expect(again.status == 409)
        let entry = try #require(AppStoreConnectError.entries(in: again.body)?.first)
        #expect(entry.code == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE" && entry.source?.pointer == "/data/attributes/cfBundleVersion")
        #expect(entry.detail.contains("build number '42' for version number '1.4.0'"))

        // What a re-run finds without sending a byte.
        let listed = try await client.all(
            Listed.self, "/v1/apps/\(appID)/buildUploads?filter%5BcfBundleShortVersionString%5D=1.4.0&filter%5BcfBundleVersion%5D=42&filter%5Bplatform%5D=IOS")
        #expect(listed.map(\.id) == [uploadID])
        let builds = try await client.all(Listed.self, "/v1/builds?filter%5Bapp%5D=\(appID)&filter%5BpreReleaseVersion.version%5D=1.4.0&sort=-uploadedDate")
        #expect(builds.map(\.id) == [buildID])
        #expect(fixture.server.uploadedByteCount() == 2500)
        fixture.expectContract()
        let summary = fixture.server.summary()
        #expect(summary.first == "upload com.example.demo 1.4.0 (42) IOS COMPLETE  Demo.ipa 2.4 KiB  build VALID")
        #expect(summary.last == "bytes received on upload URLs since start: 2.4 KiB")
    }

    struct Listed: Decodable, Sendable { var id: String }

    @Test func aRestartedServerKeepsItsState() async throws {
        let directory = TestTemporary.root + "/release-asc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Fixture(directory: directory)
        let buildID = first.server.addBuild(bundleID: Fixture.bundleID, version: "2.0", build: "7")
        first.stop()
        let second = try LocalAppStoreConnectServer(configuration: .init(storageDirectory: directory + "/server", keys: []))
        #expect(second.summary().contains { $0.contains("2.0 (7) VALID") })
        #expect(second.addBuild(bundleID: Fixture.bundleID, version: "2.0", build: "8") != buildID)
    }

    @Test func checksumsAreCheckedAndMissingPartsRefused() async throws {
        let fixture = try Fixture(partSize: 400)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let client = try fixture.client()
        let path = try fixture.file(size: 1000)

        // MD5 of the whole file, compared case-insensitively, is accepted.
        let (_, good) = try await fixture.reserve(appID: appID, build: "1", path: path)
        _ = try await fixture.sendParts(good, from: path)
        let goodID = try #require(data(good)["id"] as? String)
        let md5 = Hex.string(md5Digest(ofFile: path))
        let ok = try fixture.object(try await client.send("PATCH", "/v1/buildUploadFiles/\(goodID)", json: fixture.commitBody(goodID, hash: md5.uppercased(), algorithm: "MD5")))
        #expect((attributes(ok)["assetDeliveryState"] as? [String: Any])?["state"] as? String == "UPLOAD_COMPLETE")

        // A part missing: 409 naming it, and nothing changes.
        let (uploadID, partial) = try await fixture.reserve(appID: appID, build: "2", path: path)
        let partialID = try #require(data(partial)["id"] as? String)
        var operations = try #require(attributes(partial)["uploadOperations"] as? [[String: Any]])
        operations.removeLast()
        var trimmed = partial
        trimmed["data"] = ["attributes": ["uploadOperations": operations]]
        _ = try await fixture.sendParts(trimmed, from: path)
        let refused = try await fixture.raw("PATCH", "/v1/buildUploadFiles/\(partialID)", json: String(decoding: fixture.commitBody(partialID, hash: nil), as: UTF8.self))
        #expect(refused.status == 409)
        let entry = try #require(AppStoreConnectError.entries(in: refused.body)?.first)
        #expect(entry.code == "STATE_ERROR" && entry.detail.contains("1 of the 3 parts have not been uploaded (part 3)"))

        // The wrong checksum: the upload fails with an error Apple-style, the file too.
        _ = try await fixture.sendParts(partial, from: path)
        let failed = try fixture.object(
            try await client.send("PATCH", "/v1/buildUploadFiles/\(partialID)", json: fixture.commitBody(partialID, hash: String(repeating: "0", count: 64))))
        let delivery = try #require(attributes(failed)["assetDeliveryState"] as? [String: Any])
        #expect(delivery["state"] as? String == "FAILED")
        let upload = try fixture.object(try await client.send("GET", "/v1/buildUploads/\(uploadID)"))
        #expect(uploadState(upload) == "FAILED")
        let errors = try #require((attributes(upload)["state"] as? [String: Any])?["errors"] as? [[String: String]])
        #expect(errors.first?["code"] == "CHECKSUM_MISMATCH")
        #expect(errors.first?["description"]?.contains("does not match the checksum provided (\(String(repeating: "0", count: 64)))") == true)
        fixture.expectContract()
    }

    @Test func uploadURLsTakeExactlyTheirHeadersAndNoToken() async throws {
        let fixture = try Fixture(partSize: 100)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 150)
        let (_, file) = try await fixture.reserve(appID: appID, path: path)
        let operation = try #require((attributes(file)["uploadOperations"] as? [[String: Any]])?.first)
        let url = try #require(operation["url"] as? String)
        let headers = (operation["requestHeaders"] as? [[String: String]] ?? []).map { (name: $0["name"] ?? "", value: $0["value"] ?? "") }
        #expect(headers.map(\.name) == ["Content-Type", "x-stand-in-part-token"])
        #expect(headers.first?.value == "application/octet-stream")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100)
        let http = fixture.http(attempts: 1)

        var withToken = HTTPRequest(method: "PUT", url: url, headers: headers, body: .data(bytes), authorization: try fixture.bearer())
        #expect(try await http.send(withToken).status == 400, "a token sent to an upload URL is refused")
        withToken.authorization = nil
        var wrongHeader = withToken
        wrongHeader.headers[1].value = "forged"
        #expect(try await http.send(wrongHeader).status == 403)
        var short = withToken
        short.body = .data(bytes.prefix(99))
        #expect(try await http.send(short).status == 400)
        var unknown = withToken
        unknown.url = fixture.url + "/upload/nope/1"
        #expect(try await http.send(unknown).status == 404)
        #expect(try await http.send(withToken).status == 200)
        #expect(try await http.send(withToken).status == 200, "sending a part again rewrites the same bytes")
        let answers = fixture.server.exchanges().filter { $0.operationID == nil }.map(\.status)
        #expect(answers == [400, 403, 400, 404, 200, 200])
    }

    /// What the benchmark compares against: `curl -T` with the operation's headers, `Expect: 100-continue` and all.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func curlCanSendAPartWithExpectContinue() async throws {
        let fixture = try Fixture(partSize: 3 << 20)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 3 << 20)
        let (_, file) = try await fixture.reserve(appID: appID, path: path)
        let operation = try #require((attributes(file)["uploadOperations"] as? [[String: Any]])?.first)
        var arguments = ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-T", path, "-H", "Expect: 100-continue"]
        for header in operation["requestHeaders"] as? [[String: String]] ?? [] {
            arguments += ["-H", "\(header["name"] ?? ""): \(header["value"] ?? "")"]
        }
        arguments.append(try #require(operation["url"] as? String))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = arguments
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        #expect(status == "200")
        #expect(fixture.server.uploadedByteCount() == 3 << 20)
    }

    @Test func distributesToGroupsWithWhatToTestAndBetaReviewConverging() async throws {
        let fixture = try Fixture()
        let buildID = fixture.server.addBuild(bundleID: Fixture.bundleID, version: "1.4.0", build: "42")
        let external = fixture.server.addBetaGroup(bundleID: Fixture.bundleID, name: "External Testers")
        let team = fixture.server.addBetaGroup(bundleID: Fixture.bundleID, name: "Team", isInternal: true)
        let client = try fixture.client()
        let appID = try #require(try await client.all(Listed.self, "/v1/apps?filter%5BbundleId%5D=\(Fixture.bundleID)").first?.id)

        let groups = try await client.all(Listed.self, "/v1/betaGroups?filter%5Bapp%5D=\(appID)&filter%5Bname%5D=External%20Testers")
        #expect(groups.map(\.id) == [external])
        for _ in 0..<2 {
            _ = try await client.send("POST", "/v1/betaGroups/\(external)/relationships/builds", json: Data(#"{"data": [{"type": "builds", "id": "\#(buildID)"}]}"#.utf8))
        }
        _ = try await client.send("POST", "/v1/builds/\(buildID)/relationships/betaGroups", json: Data(#"{"data": [{"type": "betaGroups", "id": "\#(team)"}]}"#.utf8))
        let inGroup = try await client.all(Listed.self, "/v1/builds?filter%5BbetaGroups%5D=\(external)")
        #expect(inGroup.map(\.id) == [buildID], "added once, however often asked")

        let created = try fixture.object(
            try await client.send(
                "POST", "/v1/betaBuildLocalizations",
                json: Data(
                    #"""
                    {"data": {"type": "betaBuildLocalizations", "attributes": {"locale": "en-US", "whatsNew": "First"},
                      "relationships": {"build": {"data": {"type": "builds", "id": "\#(buildID)"}}}}}
                    """#.utf8)))
        let localizationID = try #require(data(created)["id"] as? String)
        let duplicate = try await fixture.raw(
            "POST", "/v1/betaBuildLocalizations",
            json: """
                {"data": {"type": "betaBuildLocalizations", "attributes": {"locale": "en-US"},
                  "relationships": {"build": {"data": {"type": "builds", "id": "\(buildID)"}}}}}
                """)
        #expect(duplicate.status == 409)
        #expect(AppStoreConnectError.entries(in: duplicate.body)?.first?.source?.pointer == "/data/attributes/locale")
        let patched = try fixture.object(
            try await client.send(
                "PATCH", "/v1/betaBuildLocalizations/\(localizationID)",
                json: Data(
                    #"""
                    {"data": {"type": "betaBuildLocalizations", "id": "\#(localizationID)", "attributes": {"whatsNew": "Fixes the login crash"}}}
                    """#.utf8)))
        #expect(attributes(patched)["whatsNew"] as? String == "Fixes the login crash")
        let found = try await client.all(Listed.self, "/v1/betaBuildLocalizations?filter%5Bbuild%5D=\(buildID)&filter%5Blocale%5D=en-US")
        #expect(found.map(\.id) == [localizationID])

        let detail = try fixture.object(try await client.send("GET", "/v1/builds/\(buildID)/buildBetaDetail"))
        let detailID = try #require(data(detail)["id"] as? String)
        #expect(attributes(detail)["internalBuildState"] as? String == "IN_BETA_TESTING", "added to an internal group")
        _ = try await client.send(
            "PATCH", "/v1/buildBetaDetails/\(detailID)",
            json: Data(#"{"data": {"type": "buildBetaDetails", "id": "\#(detailID)", "attributes": {"autoNotifyEnabled": true}}}"#.utf8))
        let details = try await client.all(Listed.self, "/v1/buildBetaDetails?filter%5Bbuild%5D=\(buildID)")
        #expect(details.map(\.id) == [detailID])
        #expect(attributes(try fixture.object(try await client.send("GET", "/v1/buildBetaDetails/\(detailID)")))["autoNotifyEnabled"] as? Bool == true)

        let submissionBody = #"{"data": {"type": "betaAppReviewSubmissions", "relationships": {"build": {"data": {"type": "builds", "id": "\#(buildID)"}}}}}"#
        let submitted = try fixture.object(try await client.send("POST", "/v1/betaAppReviewSubmissions", json: Data(submissionBody.utf8)))
        #expect(attributes(submitted)["betaReviewState"] as? String == "WAITING_FOR_REVIEW")
        let twice = try await fixture.raw("POST", "/v1/betaAppReviewSubmissions", json: submissionBody)
        #expect(twice.status == 409 && AppStoreConnectError.entries(in: twice.body)?.first?.code == "STATE_ERROR")
        let submissionID = try #require(data(submitted)["id"] as? String)
        _ = try await client.send("GET", "/v1/betaAppReviewSubmissions/\(submissionID)")
        let external2 = try fixture.object(try await client.send("GET", "/v1/builds/\(buildID)/buildBetaDetail"))
        #expect(attributes(external2)["externalBuildState"] as? String == "WAITING_FOR_BETA_REVIEW")
        let versions = try await client.all(Listed.self, "/v1/preReleaseVersions?filter%5Bapp%5D=\(appID)&filter%5Bversion%5D=1.4.0&filter%5Bplatform%5D=IOS")
        #expect(versions.count == 1)
        let expanded = try fixture.object(try await client.send("GET", "/v1/builds?filter%5Bapp%5D=\(appID)&include=preReleaseVersion,buildBetaDetail,betaGroups"))
        #expect(
            (expanded["included"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["preReleaseVersions", "buildBetaDetails"],
            "to-one relationships are expanded")
        fixture.expectContract()
        #expect(
            fixture.server.summary() == [
                "build com.example.demo 1.4.0 (42) VALID (already there)",
                "group External Testers (com.example.demo): 1.4.0 (42)",
                "group Team (com.example.demo) internal: 1.4.0 (42)",
                "what to test en-US for 1.4.0 (42): \"Fixes the login crash\"",
                "beta review 1.4.0 (42): WAITING_FOR_REVIEW",
                "bytes received on upload URLs since start: 0 B",
            ])
    }

    @Test func betaReviewNeedsTheExportComplianceAnswer() async throws {
        let fixture = try Fixture(processingPolls: 0)
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        let client = try fixture.client()
        let path = try fixture.file(size: 10)
        let (uploadID, file) = try await fixture.reserve(appID: appID, path: path)
        _ = try await fixture.sendParts(file, from: path)
        let fileID = try #require(data(file)["id"] as? String)
        _ = try await client.send("PATCH", "/v1/buildUploadFiles/\(fileID)", json: fixture.commitBody(fileID, hash: nil))
        let upload = try fixture.object(try await client.send("GET", "/v1/buildUploads/\(uploadID)"))
        #expect(uploadState(upload) == "COMPLETE")
        let buildID = try #require(((data(upload)["relationships"] as? [String: Any])?["build"] as? [String: Any]).flatMap { ($0["data"] as? [String: Any])?["id"] as? String })
        _ = try await client.send("GET", "/v1/builds/\(buildID)")
        let detail = try fixture.object(try await client.send("GET", "/v1/builds/\(buildID)/buildBetaDetail"))
        #expect(attributes(detail)["internalBuildState"] as? String == "MISSING_EXPORT_COMPLIANCE")
        let body = #"{"data": {"type": "betaAppReviewSubmissions", "relationships": {"build": {"data": {"type": "builds", "id": "\#(buildID)"}}}}}"#
        let refused = try await fixture.raw("POST", "/v1/betaAppReviewSubmissions", json: body)
        #expect(refused.status == 409)
        #expect(AppStoreConnectError.entries(in: refused.body)?.first?.detail.contains("usesNonExemptEncryption") == true)
        let patched = try fixture.object(
            try await client.send(
                "PATCH", "/v1/builds/\(buildID)", json: Data(#"{"data": {"type": "builds", "id": "\#(buildID)", "attributes": {"usesNonExemptEncryption": false}}}"#.utf8)))
        #expect(attributes(patched)["usesNonExemptEncryption"] as? Bool == false)
        #expect((try await fixture.raw("POST", "/v1/betaAppReviewSubmissions", json: body)).status == 201)
        fixture.expectContract()
    }

    @Test func rehearsalModeCreatesAppsAndGroupsAsTheyAreLookedUp() async throws {
        let plain = try Fixture()
        #expect(try await plain.client().all(Listed.self, "/v1/apps?filter%5BbundleId%5D=com.example.new").isEmpty)
        let fixture = try Fixture(autoCreate: true)
        let client = try fixture.client()
        let apps = try await client.all(Listed.self, "/v1/apps?filter%5BbundleId%5D=com.example.new")
        let appID = try #require(apps.first?.id)
        #expect(try await client.all(Listed.self, "/v1/apps?filter%5BbundleId%5D=com.example.new").map(\.id) == [appID])
        let groups = try await client.all(Listed.self, "/v1/betaGroups?filter%5Bapp%5D=\(appID)&filter%5Bname%5D=QA")
        #expect(groups.count == 1)
        #expect(try await client.all(Listed.self, "/v1/betaGroups?filter%5Bapp%5D=\(appID)").map(\.id) == groups.map(\.id))
        fixture.expectContract()
    }

    @Test func collectionsPageThroughLinksNext() async throws {
        let fixture = try Fixture(defaultPageLimit: 2)
        for number in [3, 10, 1, 2, 9] {
            fixture.server.addBuild(bundleID: Fixture.bundleID, version: "1.0", build: "\(number)")
        }
        let client = try fixture.client()
        struct Build: Decodable, Sendable {
            var attributes: Attributes
            struct Attributes: Decodable, Sendable { var version: String }
        }
        let all = try await client.all(Build.self, "/v1/builds?sort=-version")
        #expect(all.map(\.attributes.version) == ["10", "9", "3", "2", "1"], "numeric order, newest first")
        #expect(fixture.server.exchanges().count == 3)
        let first = try fixture.object(fixture.server.exchanges()[0].responseBody ?? Data())
        let paging = (first["meta"] as? [String: Any])?["paging"] as? [String: Any]
        #expect((paging?["total"] as? NSNumber)?.intValue == 5 && (paging?["limit"] as? NSNumber)?.intValue == 2)
        let next = try #require((first["links"] as? [String: Any])?["next"] as? String)
        #expect(next.hasPrefix(fixture.url + "/v1/builds?sort=-version&cursor=") && next.hasSuffix("&limit=2"))
        let limited = try fixture.object(try await client.send("GET", "/v1/builds?limit=4"))
        #expect((limited["data"] as? [Any])?.count == 4)
        fixture.expectContract()
    }

    @Test func badRequestsGetApplesErrorShapes() async throws {
        let fixture = try Fixture()
        let appID = fixture.server.addApp(bundleID: Fixture.bundleID, name: "Demo")
        func create(_ attributes: String, app: String = #"{"data": {"type": "apps", "id": "APP"}}"#) -> String {
            #"{"data": {"type": "buildUploads", "attributes": {\#(attributes)}, "relationships": {"app": \#(app.replacingOccurrences(of: "APP", with: appID))}}}"#
        }
        let full = #""cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "IOS""#
        let cases: [(String, Int, String, String?)] = [
            (create(#""cfBundleShortVersionString": "1.0", "cfBundleVersion": "1""#), 409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/platform"),
            (create(#""cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "ANDROID""#), 409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/platform"),
            (
                create(#""cfBundleShortVersionString": 1, "cfBundleVersion": "1", "platform": "IOS""#), 409, "ENTITY_ERROR.ATTRIBUTE.TYPE",
                "/data/attributes/cfBundleShortVersionString"
            ),
            (create(full + #", "colour": "red""#), 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/colour"),
            (
                create(#""cfBundleShortVersionString": "1.0", "cfBundleVersion": "1 beta", "platform": "IOS""#), 409, "ENTITY_ERROR.ATTRIBUTE.INVALID",
                "/data/attributes/cfBundleVersion"
            ),
            (create(full, app: #"{"data": {"type": "builds", "id": "1"}}"#), 409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/relationships/app/data/type"),
            (create(full, app: #"{"data": {"type": "apps", "id": "999"}}"#), 422, "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/relationships/app/data/id"),
            (#"{"data": {"type": "buildUploads", "attributes": {\#(full)}}}"#, 409, "ENTITY_ERROR.RELATIONSHIP.REQUIRED", "/data/relationships/app"),
            (#"{"data": {"type": "builds", "attributes": {}}}"#, 409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/type"),
            ("not json", 422, "ENTITY_UNPROCESSABLE", ""),
        ]
        for (body, status, code, pointer) in cases {
            let response = try await fixture.raw("POST", "/v1/buildUploads", json: body)
            let entry = AppStoreConnectError.entries(in: response.body)?.first
            #expect(response.status == status && entry?.code == code && entry?.source?.pointer == pointer, "\(body) → \(response.status) \(response.text)")
        }
        let badQuery = try await fixture.raw("GET", "/v1/builds?filter%5Bcolour%5D=red")
        #expect(badQuery.status == 400 && AppStoreConnectError.entries(in: badQuery.body)?.first?.source?.parameter == "filter[colour]")
        let badEnum = try await fixture.raw("GET", "/v1/builds?filter%5BprocessingState%5D=DONE")
        #expect(badEnum.status == 400 && AppStoreConnectError.entries(in: badEnum.body)?.first?.code == "PARAMETER_ERROR.INVALID")
        let tooMany = try await fixture.raw("GET", "/v1/builds?limit=201")
        #expect(tooMany.status == 400)
        let missing = try await fixture.raw("GET", "/v1/builds/nope")
        #expect(missing.status == 404 && AppStoreConnectError.entries(in: missing.body)?.first?.detail == "There is no resource of type 'builds' with id 'nope'")
        let mismatch = try await fixture.raw("PATCH", "/v1/builds/nope", json: #"{"data": {"type": "builds", "id": "other"}}"#)
        #expect(mismatch.status == 409 && AppStoreConnectError.entries(in: mismatch.body)?.first?.source?.pointer == "/data/id")
        #expect(try await fixture.raw("GET", "/v1/nothing").status == 404)
        #expect(try await fixture.raw("PUT", "/v1/builds/1").status == 405)
        // Every documented error answer is an ErrorResponse as the contract has it.
        fixture.expectContract(skipUndocumented: true, requests: false)
    }
}

/// MD5 of a file, for the checksum test (the server computes its own).
private func md5Digest(ofFile path: String) -> [UInt8] {
    var md5 = Insecure.MD5()
    md5.update(data: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    return Array(md5.finalize())
}
