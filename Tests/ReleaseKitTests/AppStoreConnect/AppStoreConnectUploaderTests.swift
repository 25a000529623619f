import Crypto
import Foundation
import Rehearsal
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseVersioning

/// The uploader and the TestFlight distributor against the local App Store Connect stand-in: a whole upload, a
/// re-run that sends nothing, reuse of an unfinished upload, a taken build number, every injected fault, and each
/// request they send checked against Apple's contract.
@Suite struct AppStoreConnectUploaderTests {
    static let version = "3.0.1"
    static let build = "4321"

    static func uploader(_ fixture: AppStoreConnectTestFixture, logs: Recorder<String> = Recorder(), progress: Recorder<Int64> = Recorder()) throws -> AppStoreConnectUploader {
        AppStoreConnectUploader(
            session: AppStoreConnectSession(client: try fixture.client(), log: { logs.append($0) }, sleep: { _ in try await Task.sleep(for: .milliseconds(1)) }),
            progress: { done, _ in progress.append(done) })
    }

    static func request(_ path: String, wait: AppStoreConnectUploader.Wait = .processed, build: String = build) -> AppStoreConnectUploader.Request {
        AppStoreConnectUploader.Request(
            ipa: path, bundleID: AppStoreConnectTestFixture.bundleID, version: version, build: build,
            platform: .iOS, concurrency: 3, wait: wait, pollInterval: .milliseconds(1), waitTimeout: 60)
    }

    static func sha256(_ path: String) throws -> String {
        SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).map { String(format: "%02x", $0) }.joined()
    }

    @Test func uploadsEveryPartCommitsAndWaitsUntilTheBuildIsValid() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 45_001)
        let progress = Recorder<Int64>()
        let result = try await Self.uploader(fixture, progress: progress).upload(Self.request(path))
        #expect(result.bytesSent == 45_001)
        #expect(result.state == "COMPLETE")
        #expect(result.processingState == "VALID")
        #expect(result.buildID?.isEmpty == false)
        #expect(!result.alreadyUploaded)
        #expect(fixture.server.uploadedByteCount() == 45_001)
        #expect(progress.all.max() == 45_001)
        // The stand-in holds exactly the file's bytes, and no part carried a token.
        let parts = fixture.server.exchanges().filter { $0.operationID == nil }
        #expect(parts.count == 5)
        #expect(parts.allSatisfy { $0.header("Authorization") == nil })
        let commit = try #require(fixture.server.exchanges().first { $0.operationID == "buildUploadFiles_updateInstance" })
        let body = String(decoding: commit.requestBody ?? Data(), as: UTF8.self)
        #expect(body.contains(try Self.sha256(path)))
        fixture.expectContract()
    }

    @Test func theAppStoreInformationFileGoesFirstAsTheAssetDescriptionAndOnce() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 12_000)
        let info = fixture.directory + "/files/AppStoreInfo.plist"
        try PropertyListSerialization.data(fromPropertyList: ["bundle_identifier": "com.example.demo"], format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: info))
        var request = Self.request(path)
        request.assetDescription = info
        let first = try await Self.uploader(fixture).upload(request)
        let infoSize = try #require(FileManager.default.attributesOfItem(atPath: info)[.size] as? Int)
        #expect(first.bytesSent == 12_000, "the .ipa's bytes")
        #expect(fixture.server.uploadedByteCount() == Int64(12_000 + infoSize))
        let reserved = fixture.server.exchanges().filter { $0.operationID == "buildUploadFiles_createInstance" }
            .map { String(decoding: $0.requestBody ?? Data(), as: UTF8.self) }
        #expect(reserved.count == 2)
        #expect(reserved.last?.contains(#""assetType":"ASSET_DESCRIPTION""#) == true && reserved.last?.contains("com.apple.xml-property-list") == true)
        // Both files are committed, the description before the .ipa (whose commit starts processing).
        let commits = fixture.server.exchanges().filter { $0.operationID == "buildUploadFiles_updateInstance" }
        #expect(commits.count == 2)
        #expect(String(decoding: commits.first?.requestBody ?? Data(), as: UTF8.self).contains(try Self.sha256(info)))
        #expect(fixture.server.summary().first?.contains("  AppStoreInfo.plist ") == true, "\(fixture.server.summary())")
        fixture.expectContract()

        fixture.server.clearExchanges()
        let second = try await Self.uploader(fixture).upload(request)
        #expect(second.bytesSent == 0)
        #expect(fixture.server.exchanges().allSatisfy { $0.method == "GET" })
    }

    @Test func aReRunOfACompletedUploadSendsNothing() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 25_000)
        let first = try await Self.uploader(fixture).upload(Self.request(path))
        let logs = Recorder<String>()
        let second = try await Self.uploader(fixture, logs: logs).upload(Self.request(path))
        #expect(second.bytesSent == 0)
        #expect(second.alreadyUploaded)
        #expect(second.uploadID == first.uploadID)
        #expect(second.buildID == first.buildID)
        #expect(fixture.server.uploadedByteCount() == 25_000)
        #expect(logs.all.contains("com.example.demo 3.0.1 (4321) was uploaded before (upload \(first.uploadID), COMPLETE): nothing to send"))
        #expect(fixture.server.exchanges().filter { $0.operationID == "buildUploads_createInstance" }.count == 1)
        fixture.expectContract()
    }

    @Test func anUploadStillAwaitingItsFileIsReusedNotDuplicated() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        let appID = fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 12_345)
        // An earlier run reserved the upload and its file, then died before sending anything.
        let (uploadID, _) = try await fixture.reserve(appID: appID, version: Self.version, build: Self.build, path: path)
        fixture.server.clearExchanges()
        let logs = Recorder<String>()
        let result = try await Self.uploader(fixture, logs: logs).upload(Self.request(path, wait: .uploaded))
        #expect(result.uploadID == uploadID)
        #expect(result.bytesSent == 12_345)
        #expect(logs.all.contains("reusing upload \(uploadID) of com.example.demo 3.0.1 (4321), still awaiting its file"))
        let operations = fixture.server.exchanges().compactMap(\.operationID)
        #expect(!operations.contains("buildUploads_createInstance"))
        #expect(!operations.contains("buildUploadFiles_createInstance"))
        fixture.expectContract()
    }

    @Test func aBuildNumberTakenByAnotherFileNamesTheNextFreeOne() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addBuild(bundleID: AppStoreConnectTestFixture.bundleID, version: "3.0.0", build: "4400")
        fixture.server.addBuild(bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build)
        let path = try fixture.file(size: 1000)
        await #expect(throws: AppStoreConnectError.buildTaken(version: Self.version, build: Self.build, next: "4401")) {
            try await Self.uploader(fixture).upload(Self.request(path))
        }
        #expect(fixture.server.uploadedByteCount() == 0)
        #expect(
            AppStoreConnectError.buildTaken(version: "3.0.1", build: "4321", next: "4401").description
                == "build 4321 of version 3.0.1 is already in App Store Connect; the next free build number is 4401 (run 'release bump --build appstore' or set CURRENT_PROJECT_VERSION to 4401)"
        )
        fixture.expectContract()
    }

    @Test func aConflictOnCreateIsAClearErrorWithTheNextNumber() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addFault(.status(409, operationID: "buildUploads_createInstance"))
        let path = try fixture.file(size: 1000)
        await #expect(throws: AppStoreConnectError.buildTaken(version: Self.version, build: Self.build, next: "1")) {
            try await Self.uploader(fixture).upload(Self.request(path))
        }
    }

    /// App Store Connect takes one to four groups (Simplenote's `4.54.0.1`, Pocket Casts' `7.75.0.3`); `1.2.3.4.5` is
    /// refused. The refusal is Apple's, not a
    /// "build already taken" with a made-up next number (the App Store Connect here has no build at all).
    @Test func aBuildNumberAppleRefusesIsApplesErrorNotATakenNumber() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 1000)
        do {
            _ = try await Self.uploader(fixture).upload(Self.request(path, build: "1.2.3.4.5"))
            Issue.record("a five-group build number must be refused")
        } catch let error as AppStoreConnectError {
            guard case .api(_, _, 409, let errors) = error else { Issue.record("\(error)"); return }
            #expect(errors.map(\.code) == ["ENTITY_ERROR.ATTRIBUTE.INVALID"])
            #expect(errors.first?.detail == "'1.2.3.4.5' is not a valid cfBundleVersion: use one to four period-separated integers, such as 1.4.2")
            #expect(!"\(error)".contains("already in App Store Connect"))
        }
        #expect(fixture.server.uploadedByteCount() == 0)
    }

    @Test func appleBundleVersionsHaveOneToFourGroups() {
        for accepted in ["1", "4321", "1.4.2", "26.07.5", "0.0.1", "4.54.0.1", "7.75.0.3"] { #expect(BuildNumberStrategy.isAppStoreBundleVersion(accepted), "\(accepted)") }
        for refused in ["1.2.3.4.5", "", "1.", ".1", "1..2", "1.2a", "v1", "1 2"] {
            #expect(!BuildNumberStrategy.isAppStoreBundleVersion(refused), "\(refused)")
        }
        // The version engine reads and increments the same shapes.
        #expect(BuildNumberStrategy.isBuildNumber("4.54.0.1") && !BuildNumberStrategy.isBuildNumber("1.2.3.4.5"))
    }

    @Test func partFailuresAndResetsAreRetriedPartByPart() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addFault(.partStatus(500, part: 2, times: 2))
        fixture.server.addFault(.partReset(afterBytes: 3000, part: 3))
        let path = try fixture.file(size: 30_000)
        let result = try await Self.uploader(fixture).upload(Self.request(path, wait: .uploaded))
        #expect(result.state == "COMPLETE")
        let parts = fixture.server.exchanges().filter { $0.operationID == nil }
        // Part 1 once; part 2 twice refused then stored; part 3 cut off once then stored.
        #expect(parts.count >= 6)
        #expect(fixture.server.pendingFaults.isEmpty)
        fixture.expectContract(skipUndocumented: true)
    }

    @Test func aRunThatStoppedHalfwaySendsOnlyTheMissingParts() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        // Part 3 fails as often as the client tries: the first run stops after parts 1 and 2.
        fixture.server.addFault(.partStatus(500, part: 3, times: 4))
        let path = try fixture.file(size: 45_000)
        var request = Self.request(path, wait: .uploaded)
        request.concurrency = 1
        await #expect(throws: AppStoreConnectError.self) { try await Self.uploader(fixture).upload(request) }
        let record = (path as NSString).deletingLastPathComponent + "/.Demo.ipa.appstore-upload.json"
        #expect(FileManager.default.fileExists(atPath: record))

        let logs = Recorder<String>()
        let result = try await Self.uploader(fixture, logs: logs).upload(request)
        #expect(result.bytesSent == 25_000)
        #expect(result.state == "COMPLETE")
        #expect(logs.all.contains("sending 24.4 KiB in 3 parts, 1 at a time (2 of 5 sent by an earlier run)"), "\(logs.all)")
        #expect(!FileManager.default.fileExists(atPath: record), "the record goes once the file is committed")
        fixture.expectContract(skipUndocumented: true)
    }

    @Test func partsTheRecordCountsButAppStoreConnectLacksAreSentAgain() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000)
        let appID = fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 30_000)
        let (_, file) = try await fixture.reserve(appID: appID, version: Self.version, build: Self.build, path: path)
        let fileID = try #require((file["data"] as? [String: Any])?["id"] as? String)
        // A record that claims every part, though none arrived.
        let stale = UploadPartRecord(ipa: path, fileID: fileID, size: 30_000)
        for part in 1...3 { stale.add(part) }
        let logs = Recorder<String>()
        let result = try await Self.uploader(fixture, logs: logs).upload(Self.request(path, wait: .uploaded))
        #expect(result.state == "COMPLETE")
        #expect(result.bytesSent == 30_000)
        #expect(logs.all.contains("sending every part again"))
        #expect(fixture.server.uploadedByteCount() == 30_000)
    }

    @Test func rateLimitsAreWaitedOutAsAppleAsks() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addFault(.tooManyRequests(operationID: "buildUploads_getInstance", retryAfter: 7))
        let path = try fixture.file(size: 2000)
        let result = try await Self.uploader(fixture).upload(Self.request(path, wait: .uploaded))
        #expect(result.state == "COMPLETE")
        #expect(fixture.delays.all.contains(.seconds(7)))
    }

    @Test func aProcessingFailureShowsApplesErrorsVerbatim() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addFault(.processingFailure([AppStoreConnectFault.versionNotHigher]))
        let path = try fixture.file(size: 2000)
        do {
            _ = try await Self.uploader(fixture).upload(Self.request(path))
            Issue.record("a failed upload must throw")
        } catch let error as AppStoreConnectError {
            #expect(
                error.description == """
                    the upload of 3.0.1 (4321) ended FAILED in App Store Connect:
                      ITMS-90062: This bundle is invalid. The value for key CFBundleShortVersionString [1.0.0] in the Info.plist file must contain a higher version than that of the previously approved version [1.0.0].
                    """)
        }
    }

    @Test func aRevokedKeyIsNamedAsSuch() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addFault(.unauthorized(operationID: nil, times: 10))
        let path = try fixture.file(size: 2000)
        do {
            _ = try await Self.uploader(fixture).upload(Self.request(path))
            Issue.record("a 401 must throw")
        } catch let error as AppStoreConnectError {
            #expect(error.description.hasPrefix("App Store Connect did not accept the API key (check key_id, issuer_id and key; the key must not be revoked): 401 NOT_AUTHORIZED"))
        }
    }

    @Test func anUnknownAppSaysWhereToCreateIt() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let path = try fixture.file(size: 2000)
        await #expect(throws: AppStoreConnectError.noApp(bundleID: "com.example.demo")) {
            try await Self.uploader(fixture).upload(Self.request(path))
        }
    }

    // MARK: Build numbers

    @Test func buildNumbersComeFromBuildsAndUnfinishedUploads() async throws {
        let fixture = try AppStoreConnectTestFixture(defaultPageLimit: 2)
        let appID = fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        for (version, build) in [("3.0.0", "9"), ("3.0.0", "10"), ("3.0.1", "11"), ("2.9.0", "8")] {
            fixture.server.addBuild(bundleID: AppStoreConnectTestFixture.bundleID, version: version, build: build)
        }
        let path = try fixture.file(size: 100)
        _ = try await fixture.reserve(appID: appID, version: "3.0.1", build: "12", path: path)
        let numbers = try await AppStoreConnectCatalog(client: try fixture.client()).buildNumbers(bundleID: AppStoreConnectTestFixture.bundleID, version: "3.0.0")
        #expect(numbers.all.latest == "12")
        #expect(numbers.all.next == "13")
        #expect(numbers.version?.latest == "10")
        fixture.expectContract()
    }

    // MARK: TestFlight

    static func distributor(_ fixture: AppStoreConnectTestFixture, logs: Recorder<String> = Recorder()) throws -> TestFlightDistributor {
        TestFlightDistributor(session: AppStoreConnectSession(client: try fixture.client(), log: { logs.append($0) }, sleep: { _ in try await Task.sleep(for: .milliseconds(1)) }))
    }

    @Test func distributionSetsNotesGroupsAndReviewThenConverges() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addBetaGroup(bundleID: AppStoreConnectTestFixture.bundleID, name: "QA", isInternal: true)
        fixture.server.addBetaGroup(bundleID: AppStoreConnectTestFixture.bundleID, name: "Friends")
        let path = try fixture.file(size: 3000)
        _ = try await Self.uploader(fixture).upload(Self.request(path, wait: .none))
        var request = TestFlightDistributor.Request(
            bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build,
            whatToTest: ["en-US": "Try the new widget", "de-DE": "Probier das neue Widget"],
            groups: ["QA", "Friends"], submitForReview: true, usesNonExemptEncryption: false,
            pollInterval: .milliseconds(1), waitTimeout: 60)
        let first = try await Self.distributor(fixture).distribute(request)
        #expect(
            first.changed == [
                "export compliance (uses non-exempt encryption: false)", "what to test (de-DE)", "what to test (en-US)",
                "beta groups 'QA', 'Friends'", "beta review submission (WAITING_FOR_REVIEW)",
            ])
        let second = try await Self.distributor(fixture).distribute(request)
        #expect(second.unchanged.contains("what to test (en-US)"))
        #expect(second.unchanged.contains("what to test (de-DE)"))
        #expect(second.unchanged.contains("export compliance (uses non-exempt encryption: false)"))
        #expect(second.unchanged.contains("beta groups 'QA', 'Friends'"))
        #expect(second.changed.isEmpty, "\(second.changed)")
        #expect(second.unchanged.contains { $0.hasPrefix("beta review (") })
        #expect(!second.changed.contains { $0.hasPrefix("what to test") || $0.hasPrefix("beta review") })
        // A changed text is updated in place, not added.
        request.whatToTest = ["en-US": "Try the new widget, again"]
        let third = try await Self.distributor(fixture).distribute(request)
        #expect(third.changed.contains("what to test (en-US)"))
        #expect(fixture.server.exchanges().filter { $0.operationID == "betaBuildLocalizations_createInstance" }.count == 2)
        fixture.expectContract()
    }

    @Test func anUnknownGroupListsTheAppsGroups() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addBetaGroup(bundleID: AppStoreConnectTestFixture.bundleID, name: "QA")
        fixture.server.addBuild(bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build)
        let request = TestFlightDistributor.Request(
            bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build,
            groups: ["Q A"], pollInterval: .milliseconds(1), waitTimeout: 60)
        await #expect(throws: AppStoreConnectError.noBetaGroup(name: "Q A", available: ["QA"])) {
            try await Self.distributor(fixture).distribute(request)
        }
    }

    @Test func aBuildThatWasNeverUploadedFailsAtOnce() async throws {
        let fixture = try AppStoreConnectTestFixture()
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let request = TestFlightDistributor.Request(
            bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build,
            groups: ["QA"], pollInterval: .milliseconds(1), waitTimeout: 3600)
        await #expect(throws: AppStoreConnectError.noBuild(version: Self.version, build: Self.build)) {
            try await Self.distributor(fixture).distribute(request)
        }
    }
}
