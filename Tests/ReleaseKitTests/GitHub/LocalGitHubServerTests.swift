import Foundation
import Rehearsal
import Testing

@testable import ReleaseGitHub
@testable import ReleaseHTTP

@Suite("LocalGitHubServer")
struct LocalGitHubServerTests {
    @Test func paginatesWithLinkHeaders() async throws {
        let fixture = try GitHubTestFixture()
        let client = try fixture.client()
        for index in 1...7 {
            _ = try await client.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v\(index)", draft: false))
        }
        let page = try await client.send("GET", "/repos/octo/app/releases?per_page=3&page=2")
        #expect(page.status == 200)
        let link = try #require(page.header("Link"))
        #expect(link.contains("<\(fixture.url)/repos/octo/app/releases?per_page=3&page=3>; rel=\"next\""))
        #expect(link.contains("rel=\"prev\""))
        let tags = try JSONDecoder().decode([GitHubRelease].self, from: page.body).map(\.tagName)
        #expect(tags == ["v4", "v3", "v2"])

        fixture.server.clearRequests()
        let all = try await client.paginate(GitHubRelease.self, "/repos/octo/app/releases?per_page=2")
        #expect(all.map(\.tagName) == ["v7", "v6", "v5", "v4", "v3", "v2", "v1"])
        #expect(fixture.server.requests.count == 4)
    }

    @Test func draftsAreNotFoundByTagAndDuplicatesAreRefused() async throws {
        let fixture = try GitHubTestFixture()
        let client = try fixture.client()
        let draft = try await client.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1", draft: true))
        #expect(try await client.releaseByTag(GitHubTestFixture.repo, tag: "v1") == nil)
        let published = try await client.updateRelease(GitHubTestFixture.repo, id: draft.id, GitHubReleaseFields(draft: false))
        #expect(try await client.releaseByTag(GitHubTestFixture.repo, tag: "v1")?.id == published.id)
        await #expect {
            _ = try await client.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1"))
        } throws: { ($0 as? GitHubError)?.isAlreadyExists == true && "\($0)".contains("HTTP 422: Validation Failed (already_exists field 'tag_name')") }
    }

    @Test func duplicateAssetGets422AlreadyExistsWithGitHubsBody() async throws {
        let fixture = try GitHubTestFixture()
        let client = try fixture.client()
        let path = try fixture.file("a.zip", size: 1000)
        let release = try await client.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1", draft: true))
        let first = try await client.uploadAsset(uploadURLTemplate: release.uploadURL, file: path, name: "a.zip", contentType: "application/zip")
        #expect(first.status == 201)
        let asset = try JSONDecoder().decode(GitHubReleaseAsset.self, from: first.body)
        #expect(asset.state == "uploaded")
        #expect(asset.digest == (try fixture.sha256(path)))
        #expect(asset.contentType == "application/zip")
        let second = try await client.uploadAsset(uploadURLTemplate: release.uploadURL, file: path, name: "a.zip", contentType: "application/zip")
        #expect(second.status == 422)
        let body = try #require(try JSONSerialization.jsonObject(with: second.body) as? [String: Any])
        #expect(body["message"] as? String == "Validation Failed")
        let errors = try #require(body["errors"] as? [[String: String]])
        #expect(errors == [["resource": "ReleaseAsset", "code": "already_exists", "field": "name"]])
        // GitHub's renaming of unsupported characters.
        let renamed = try await client.uploadAsset(uploadURLTemplate: release.uploadURL, file: path, name: "my app (1).zip", contentType: "application/zip")
        #expect(try JSONDecoder().decode(GitHubReleaseAsset.self, from: renamed.body).name == "my.app..1..zip")
    }

    @Test func authenticationAndPermissions() async throws {
        let fixture = try GitHubTestFixture()
        let anonymous = try await HTTPClient().send(HTTPRequest(url: fixture.url + "/user"))
        #expect(anonymous.status == 401)
        #expect(GitHubClient.message(of: anonymous) == "Requires authentication")
        await #expect {
            _ = try await fixture.client(token: "nope").authenticatedUser()
        } throws: { "\($0)".contains("401 Bad credentials") }
        let readOnly = try fixture.client(token: GitHubTestFixture.readOnlyToken)
        #expect(try await readOnly.repository(GitHubTestFixture.repo).canPush == false)
        #expect(try await fixture.client().repository(GitHubTestFixture.repo).canPush == true)
        await #expect {
            _ = try await readOnly.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1"))
        } throws: { "\($0)".contains("HTTP 403: Resource not accessible by personal access token") }
    }

    @Test func immutableReleasesRefuseAssetChanges() async throws {
        let fixture = try GitHubTestFixture(immutable: true)
        let client = try fixture.client()
        let path = try fixture.file("a.zip", size: 1000)
        let draft = try await client.createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1", draft: true))
        let published = try await client.updateRelease(GitHubTestFixture.repo, id: draft.id, GitHubReleaseFields(draft: false))
        #expect(published.isImmutable)
        let upload = try await client.uploadAsset(uploadURLTemplate: published.uploadURL, file: path, name: "a.zip", contentType: "application/zip")
        #expect(upload.status == 422)
        #expect(GitHubClient.message(of: upload) == "Cannot modify an immutable release.")
    }

    @Test func stateSurvivesARestartAndDownloadsServeTheBytes() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("a.zip", size: 54_321)
        _ = try await fixture.publisher().publish(fixture.publication([path], tag: "v1"))
        fixture.server.stop()
        let again = try LocalGitHubServer(configuration: fixture.server.configuration)
        let url = try again.start()
        defer { again.stop() }
        let client = try GitHubClient(apiURL: url, token: GitHubTestFixture.token)
        let release = try #require(try await client.releaseByTag(GitHubTestFixture.repo, tag: "v1"))
        let asset = try #require(release.assets?.first)
        #expect(asset.browserDownloadURL == "\(url)/octo/app/releases/download/v1/a.zip")
        let download = try await HTTPClient().send(HTTPRequest(url: asset.browserDownloadURL, maxResponseBytes: 100_000))
        #expect(download.status == 200)
        #expect(download.body == FileManager.default.contents(atPath: path))
        #expect(download.header("Content-Type") == "application/zip")
    }

    @Test func rateLimitHeadersCountDown() async throws {
        let fixture = try GitHubTestFixture()
        let client = try fixture.client()
        let first = try await client.send("GET", "/user")
        let second = try await client.send("GET", "/user")
        let remaining = [first, second].compactMap { $0.header("X-RateLimit-Remaining").flatMap(Int.init) }
        #expect(remaining.count == 2 && remaining[1] == remaining[0] - 1)
        #expect(first.header("X-RateLimit-Reset").flatMap(Int.init).map { $0 > Int(Date().timeIntervalSince1970) } == true)
    }

    @Test func summaryListsWhatWasPublished() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("Demo.zip", size: 1234)
        _ = try await fixture.publisher().publish(fixture.publication([path], tag: "v1"))
        #expect(
            fixture.server.summary() == [
                "octo/app v1 (published) \(fixture.url)/octo/app/releases/tag/v1",
                "  Demo.zip  1234 bytes  application/zip  uploaded  \(try fixture.sha256(path))",
            ])
    }
}
