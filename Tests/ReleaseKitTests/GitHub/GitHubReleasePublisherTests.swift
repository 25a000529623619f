import Foundation
import Rehearsal
import Testing

@testable import ReleaseGitHub
@testable import ReleaseSupport

@Suite("ReleasePublisher against the local GitHub server")
struct GitHubReleasePublisherTests {
    /// Exactly one `uploaded` asset per name with the right digest, and the release published.
    func expectConverged(_ fixture: GitHubTestFixture, _ paths: [String], tag: String = "v3.0.0-4321_2014-10-22T06-01-18Z") throws {
        let releases = fixture.server.releases(repository: GitHubTestFixture.repo).filter { $0.tagName == tag }
        #expect(releases.count == 1)
        guard let release = releases.first else { return }
        #expect(release.draft == false)
        let assets = fixture.server.assets(releaseID: release.id)
        #expect(assets.count == paths.count)
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let named = assets.filter { $0.name == name }
            #expect(named.count == 1, "asset \(name)")
            #expect(named.first?.state == "uploaded")
            #expect(named.first?.digest == (try fixture.sha256(path)))
            if let id = named.first?.id {
                #expect(FileManager.default.contentsEqual(atPath: fixture.server.assetPath(id), andPath: path))
            }
        }
    }

    @Test func happyPathPublishesReleaseWithAssets() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.xcarchive.zip", size: 300_000)
        let dsym = try fixture.file("Demo.app.dSYM.zip", size: 70_000, seed: 2)
        let publisher = try fixture.publisher()
        let publication = fixture.publication([zip, dsym])

        let report = try await publisher.preflight(publication)
        #expect(report.canPush)
        #expect(report.existing == nil)
        let result = try await publisher.publish(publication)

        try expectConverged(fixture, [zip, dsym])
        #expect(result.release.draft == false)
        #expect(result.release.name == "v3.0.0-4321_2014-10-22T06-01-18Z")
        #expect(result.release.body == "Build: 3.0.0 (4321)\nUploaded: 2014/10/22 15:01:18\n")
        #expect(result.release.targetCommitish == "master")
        #expect(result.uploaded == ["Demo.xcarchive.zip", "Demo.app.dSYM.zip"])
        #expect(result.bytesUploaded == 370_000)
        #expect(
            result.assets.map(\.browserDownloadURL) == [
                "\(fixture.url)/octo/app/releases/download/v3.0.0-4321_2014-10-22T06-01-18Z/Demo.xcarchive.zip",
                "\(fixture.url)/octo/app/releases/download/v3.0.0-4321_2014-10-22T06-01-18Z/Demo.app.dSYM.zip",
            ])
        let uploads = fixture.server.requests.filter { $0.route == .uploadAsset }
        #expect(uploads.count == 2)
        #expect(uploads.allSatisfy { $0.header("Content-Type") == "application/zip" })
        #expect(uploads.allSatisfy { $0.header("Expect") == nil })
        #expect(Set(uploads.compactMap { $0.header("Content-Length") }) == ["300000", "70000"])
        // Created as a draft, published only after the assets were verified.
        let create = fixture.server.requests.first { $0.route == .createRelease }
        #expect(create != nil)
        let routes = fixture.server.requests.map(\.route)
        #expect(routes.lastIndex(of: .updateRelease)! > routes.lastIndex(of: .uploadAsset)!)
    }

    @Test func rerunOfPublishedReleaseUploadsNothing() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.xcarchive.zip", size: 200_000)
        let dsym = try fixture.file("Demo.app.dSYM.zip", size: 50_000, seed: 2)
        let publication = fixture.publication([zip, dsym])
        _ = try await fixture.publisher().publish(publication)
        fixture.server.clearRequests()

        let again = try await fixture.publisher().publish(publication)

        #expect(again.bytesUploaded == 0)
        #expect(again.uploaded.isEmpty)
        #expect(again.skipped == ["Demo.xcarchive.zip", "Demo.app.dSYM.zip"])
        #expect(again.apiCalls <= 3 * publication.assets.count)
        #expect(again.apiCalls == fixture.server.requests.count)
        #expect(!fixture.server.requests.contains { $0.route == .uploadAsset || $0.route == .deleteAsset || $0.route == .createRelease })
        try expectConverged(fixture, [zip, dsym])
    }

    /// A new asset is sent without being read for its SHA-256 first (the hash competed with the upload for the
    /// CPU); the digest GitHub stores is what the next run compares the file with, so a changed file is still seen.
    @Test func newAssetsAreNotHashedAndARerunComparesByDigest() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.xcarchive.zip", size: 200_000)
        let dsym = try fixture.file("Demo.app.dSYM.zip", size: 50_000, seed: 2)
        let hashed = Recorder<String>()
        var publisher = try fixture.publisher()
        publisher.digest = { path in
            hashed.append((path as NSString).lastPathComponent)
            return try await FileDigest.sha256(ofFile: path)
        }

        let first = try await publisher.publish(fixture.publication([zip, dsym]))
        #expect(first.uploaded == ["Demo.xcarchive.zip", "Demo.app.dSYM.zip"])
        #expect(hashed.all.isEmpty)
        try expectConverged(fixture, [zip, dsym])

        let again = try await publisher.publish(fixture.publication([zip, dsym]))
        #expect(again.skipped == ["Demo.xcarchive.zip", "Demo.app.dSYM.zip"])
        #expect(hashed.all.sorted() == ["Demo.app.dSYM.zip", "Demo.xcarchive.zip"])

        try fixture.file("Demo.app.dSYM.zip", size: 50_000, seed: 9)  // same name and size, other bytes
        var replacing = fixture.publication([zip, dsym])
        replacing.replace = .fail
        await #expect(throws: GitHubError.self) { try await publisher.publish(replacing) }
    }

    @Test func draftIsFoundByListingAndCompleted() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 10_000)
        var publication = fixture.publication([zip], draft: true)
        let first = try await fixture.publisher().publish(publication)
        #expect(first.release.draft)
        // Not found by tag, as on GitHub.
        let byTag = try await fixture.client().releaseByTag(GitHubTestFixture.repo, tag: publication.tag)
        #expect(byTag == nil)

        publication.draft = false
        let second = try await fixture.publisher().publish(publication)
        #expect(second.release.id == first.release.id)
        #expect(second.bytesUploaded == 0)
        try expectConverged(fixture, [zip])
    }

    static let recoverableFaults: [LocalServerFault] = [
        .badGatewayAfterBody,
        .gatewayTimeoutAfterUpload,
        .resetMidBody(afterBytes: 100_000),
        .stall(afterBytes: 100_000, seconds: 3),
        .secondaryRateLimit(retryAfter: 2),
        .tooManyRequests(retryAfter: 1),
    ]

    @Test(arguments: recoverableFaults)
    func uploadFaultStillConverges(fault: LocalServerFault) async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.xcarchive.zip", size: 3_000_000)
        let json = try fixture.file("manifest.json", size: 1_000, seed: 3)
        fixture.server.addFault(.upload(fault))
        var publication = fixture.publication([zip, json])
        publication.concurrency = 1  // keeps the request log in a checkable order

        let result = try await fixture.publisher().publish(publication)

        try expectConverged(fixture, [zip, json])
        #expect(fixture.server.pendingFaults.isEmpty)
        #expect(result.uploaded.count == 2)
        let uploads = fixture.server.requests.filter { $0.route == .uploadAsset }
        // The 504 stored the asset: the publisher found it by listing and did not send it again.
        if fault == .gatewayTimeoutAfterUpload {
            #expect(uploads.count == 2)
            #expect(fixture.allLogs.contains { $0.contains("landed despite the error") })
        } else {
            #expect(uploads.count == 3)
        }
        // Every failed upload is followed by a listing before the next upload.
        let routes = fixture.server.requests.map(\.route)
        if let failed = fixture.server.requests.firstIndex(where: { $0.route == .uploadAsset && $0.status != 201 }) {
            let next = routes[(failed + 1)...]
            #expect(next.first == .listAssets)
        }
        switch fault {
        case .secondaryRateLimit(let seconds), .tooManyRequests(let seconds):
            #expect(fixture.delays.all.contains(.seconds(seconds)))
        default:
            break
        }
    }

    @Test func serverErrorOnListIsRetried() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 5_000)
        fixture.server.addFault(LocalServerFaultRule(route: .listReleases, fault: .status(500, message: "Internal Server Error")))
        _ = try await fixture.publisher().publish(fixture.publication([zip]))
        try expectConverged(fixture, [zip])
        #expect(fixture.server.requests.filter { $0.route == .listReleases }.map(\.status).prefix(2) == [500, 200])
    }

    @Test func createThatLandedDespite504IsNotDuplicated() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 5_000)
        fixture.server.addFault(LocalServerFaultRule(route: .createRelease, fault: .gatewayTimeoutAfterUpload))
        _ = try await fixture.publisher().publish(fixture.publication([zip]))
        try expectConverged(fixture, [zip])
        #expect(fixture.server.releases().count == 1)
    }

    @Test func retriesRunningOutLeaveAnUnpublishedDraft() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 50_000)
        fixture.server.addFault(.upload(.badGatewayAfterBody, times: 10))

        let publisher = try fixture.publisher(attempts: 3)
        await #expect {
            _ = try await publisher.publish(fixture.publication([zip]))
        } throws: { error in
            let text = "\(error)"
            return text.contains("upload of asset 'Demo.zip' failed after 3 attempts")
                && text.contains("HTTP 502") && text.contains("left as a draft")
        }
        let release = try #require(fixture.server.releases().first)
        #expect(release.draft)
        #expect(fixture.server.requests.filter { $0.route == .uploadAsset }.count == 3)
        #expect(fixture.server.requests.filter { $0.route == .updateRelease }.isEmpty)

        // The next run, with the fault gone, completes the same release.
        fixture.server.clearFaults()
        _ = try await fixture.publisher().publish(fixture.publication([zip]))
        try expectConverged(fixture, [zip])
        #expect(fixture.server.releases().first?.id == release.id)
    }

    @Test func wrongTokenFailsPreflightBeforeAnyUpload() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 5_000)
        let publisher = try fixture.publisher(token: "ghp_wrong_token_value_123456")
        await #expect {
            _ = try await publisher.preflight(fixture.publication([zip]))
        } throws: { error in
            "\(error)".contains("GitHub rejected the token") && "\(error)".contains("Bad credentials")
        }
        await #expect(throws: GitHubError.self) {
            _ = try await publisher.publish(fixture.publication([zip]))
        }
        #expect(fixture.server.requests.allSatisfy { $0.status == 401 })
        #expect(!fixture.server.requests.contains { $0.route == .uploadAsset || $0.route == .createRelease })
        #expect(fixture.server.releases().isEmpty)
    }

    @Test func readOnlyTokenPassesDryRunPreflightButNotRealOne() async throws {
        let fixture = try GitHubTestFixture()
        let zip = try fixture.file("Demo.zip", size: 5_000)
        let publisher = try fixture.publisher(token: GitHubTestFixture.readOnlyToken)
        let report = try await publisher.preflight(fixture.publication([zip]), requirePush: false)
        #expect(report.canPush == false)
        #expect(report.notes.contains { $0.contains("cannot push") })
        await #expect {
            _ = try await publisher.preflight(fixture.publication([zip]), requirePush: true)
        } throws: { "\($0)".contains("the token cannot push to 'octo/app'") }
    }

    @Test func immutableReleaseRefusesNewAssetsInPreflight() async throws {
        let fixture = try GitHubTestFixture(immutable: true)
        let zip = try fixture.file("Demo.zip", size: 5_000)
        let other = try fixture.file("Other.zip", size: 6_000, seed: 9)
        _ = try await fixture.publisher().publish(fixture.publication([zip]))
        #expect(fixture.server.releases().first?.immutable == true)

        // The same content re-runs fine.
        let again = try await fixture.publisher().publish(fixture.publication([zip]))
        #expect(again.bytesUploaded == 0)

        let publisher = try fixture.publisher()
        await #expect {
            _ = try await publisher.preflight(fixture.publication([zip, other]))
        } throws: { error in
            "\(error)".contains("release 'v3.0.0-4321_2014-10-22T06-01-18Z' is immutable and published: asset 'Other.zip' is not in it")
        }
        await #expect(throws: GitHubError.self) {
            _ = try await publisher.publish(fixture.publication([zip, other]))
        }
        #expect(!fixture.server.requests.contains { $0.route == .uploadAsset && $0.target.contains("Other.zip") })
    }

    @Test func assetOver2GiBIsRejectedInPreflight() async throws {
        let fixture = try GitHubTestFixture()
        let path = fixture.directory + "/files/huge.ipa"
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, (2 << 30) + 1) == 0)  // sparse: no disk used
        close(descriptor)
        let publisher = try fixture.publisher()
        await #expect {
            _ = try await publisher.preflight(fixture.publication([path]))
        } throws: { "\($0)".contains("asset '\(path)' is 2.0 GiB; GitHub accepts files under 2 GiB") }
        #expect(!fixture.server.requests.contains { $0.route == .uploadAsset })
    }

    @Test func namesCollidingAfterGitHubRenamingAreRejected() {
        let publication = ReleasePublication(
            repository: "octo/app", tag: "v1",
            assets: [PublishAsset(path: "/tmp/a", name: "my app.zip"), PublishAsset(path: "/tmp/b", name: "my.app.zip")]
        )
        let problems = ReleasePublisher.localProblems(publication, promisedPaths: ["/tmp/a", "/tmp/b"])
        #expect(problems == ["assets 'my app.zip' and 'my.app.zip' would all be named 'my.app.zip' on GitHub"])
    }

    @Test func bodyOver125000CharactersIsRejected() {
        let publication = ReleasePublication(repository: "octo/app", tag: "v1", body: String(repeating: "x", count: 125_001))
        #expect(
            ReleasePublisher.localProblems(publication) == [
                "release body has 125001 characters; GitHub accepts at most 125000"
            ])
    }

    @Test(arguments: [AssetReplacePolicy.fail, .replace, .skip])
    func differentRemoteAssetFollowsReplacePolicy(policy: AssetReplacePolicy) async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("Demo.zip", size: 4_000, seed: 1)
        var publication = fixture.publication([path])
        _ = try await fixture.publisher().publish(publication)
        try fixture.file("Demo.zip", size: 4_500, seed: 7)  // rebuilt with different content
        publication.replace = policy
        let publisher = try fixture.publisher()
        switch policy {
        case .fail:
            await #expect {
                _ = try await publisher.publish(publication)
            } throws: { "\($0)".contains("asset 'Demo.zip' already exists with different content") }
        case .replace:
            _ = try await publisher.publish(publication)
            try expectConverged(fixture, [path])
        case .skip:
            let result = try await publisher.publish(publication)
            #expect(result.bytesUploaded == 0)
            #expect(fixture.allLogs.contains { $0.contains("keeping different remote asset 'Demo.zip'") })
        }
    }

    @Test func starterAssetLeftByEarlierRunIsReplaced() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("Demo.zip", size: 400_000)
        fixture.server.addFault(.upload(.resetMidBody(afterBytes: 1000), times: 10))
        await #expect(throws: (any Error).self) {
            _ = try await fixture.publisher(attempts: 1).publish(fixture.publication([path]))
        }
        let release = try #require(fixture.server.releases().first)
        #expect(fixture.server.assets(releaseID: release.id).map(\.state) == ["starter"])
        fixture.server.clearFaults()
        _ = try await fixture.publisher().publish(fixture.publication([path]))
        try expectConverged(fixture, [path])
        #expect(fixture.allLogs.contains { $0.contains("deleting incomplete asset 'Demo.zip' (state 'starter')") })
    }
}
