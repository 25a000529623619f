import Foundation
import Testing

@testable import ReleaseGitHub
@testable import ReleasePipeline
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite("github.release and http.upload steps")
struct GitHubReleaseStepTests {
    static func decode<T: StepOptions>(_ type: T.Type, _ json: String) throws -> T {
        try decodeOptions(type, json)
    }

    static func context(_ fixture: GitHubTestFixture, dryRun: Bool = false, events: Recorder<StepEvent>) -> StepContext {
        StepContext(
            stepID: "publish", kind: GitHubReleaseStep.kind, workingDirectory: fixture.directory + "/files",
            environment: [:], isDryRun: dryRun, endpoints: ServiceEndpoints(overrides: [.github: fixture.url]), sink: { events.append($0) }
        )
    }

    @Test func documentationExamplesDecode() throws {
        _ = try exampleOptions(GitHubReleaseStep.self)
        _ = try exampleOptions(HTTPUploadStep.self)
        let names = GitHubReleaseStep.documentation.options.map(\.name)
        #expect(names.contains("target_commitish") && names.contains("body_file") && names.contains("make_latest"))
    }

    @Test func seedReleasePublishesThroughTheStep() async throws {
        let fixture = try GitHubTestFixture()
        try fixture.file("Demo.xcarchive.zip", size: 40_000)
        try fixture.file("Demo.app.dSYM.zip", size: 9_000, seed: 5)
        let options = try Self.decode(
            GitHubReleaseStep.Options.self,
            """
            {"repo": "octo/app", "token": "\(GitHubTestFixture.token)", "tag": "v3.0.0-4321_2014-10-22T06-01-18Z",
             "name": "v3.0.0-4321_2014-10-22T06-01-18Z", "body": "Build: 3.0.0 (4321)\\nUploaded: 2014/10/22 15:01:18\\n",
             "target_commitish": "master", "make_latest": true,
             "assets": ["Demo.xcarchive.zip", {"path": "*.dSYM.zip", "label": "dSYMs"}]}
            """)
        let step = try GitHubReleaseStep(options: options)
        let events = Recorder<StepEvent>()
        let context = Self.context(fixture, events: events)
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.count == 5)
        #expect(
            plan.effects.first
                == .request(
                    method: "GET", url: "\(fixture.url)/repos/octo/app/releases?per_page=100",
                    detail: "find the release for tag 'v3.0.0-4321_2014-10-22T06-01-18Z' (drafts included)"))
        let outputs = try await step.run(in: context)

        let release = try #require(fixture.server.releases().first)
        #expect(release.draft == false)
        #expect(release.tagName == "v3.0.0-4321_2014-10-22T06-01-18Z")
        #expect(release.name == release.tagName)
        #expect(release.body == "Build: 3.0.0 (4321)\nUploaded: 2014/10/22 15:01:18\n")
        #expect(release.targetCommitish == "master")
        #expect(release.makeLatest == "true")
        let assets = fixture.server.assets(releaseID: release.id)
        #expect(Set(assets.map(\.name)) == ["Demo.xcarchive.zip", "Demo.app.dSYM.zip"])  // uploaded concurrently
        #expect(assets.first { $0.name == "Demo.app.dSYM.zip" }?.label == "dSYMs")
        #expect(assets.first { $0.name == "Demo.xcarchive.zip" }?.label == nil)
        let download = "\(fixture.url)/octo/app/releases/download/v3.0.0-4321_2014-10-22T06-01-18Z/Demo.app.dSYM.zip"
        #expect(outputs["asset_url_Demo_app_dSYM_zip"] == .string(download))
        #expect(outputs["url"] == .string("\(fixture.url)/octo/app/releases/tag/v3.0.0-4321_2014-10-22T06-01-18Z"))
        #expect(outputs["id"] == .number(Double(release.id)))
        #expect(outputs["bytes_uploaded"] == .number(49_000))
        if case .list(let urls) = outputs["assets"] { #expect(urls.count == 2) } else { Issue.record("assets is not a list") }
        // The plan promised the same URLs run produced.
        #expect(plan.outputs["url"] == outputs["url"])
        #expect(plan.outputs["asset_url_Demo_app_dSYM_zip"] == outputs["asset_url_Demo_app_dSYM_zip"])
        #expect(events.all.contains { if case .progress(let done, let total, .bytes) = $0 { return done == total && total! > 0 } else { return false } })

        // Re-running the step converges without uploading.
        let again = try await step.run(in: context)
        #expect(again["bytes_uploaded"] == .number(0))
    }

    @Test func dryRunVerifyAcceptsReadOnlyTokenAndPromisedAssets() async throws {
        let fixture = try GitHubTestFixture()
        let options = try Self.decode(
            GitHubReleaseStep.Options.self,
            """
            {"repo": "octo/app", "token": "\(GitHubTestFixture.readOnlyToken)", "tag": "v1", "assets": ["build/Demo.zip"]}
            """)
        let step = try GitHubReleaseStep(options: options)
        let events = Recorder<StepEvent>()
        let promised = StepContext(
            stepID: "publish", kind: GitHubReleaseStep.kind, workingDirectory: fixture.directory, environment: [:],
            isDryRun: true, endpoints: ServiceEndpoints(overrides: [.github: fixture.url]), promisedPaths: [fixture.directory + "/build/Demo.zip": "zip"],
            sink: { events.append($0) }
        )
        try await step.verify(in: promised)
        #expect(events.all.contains { if case .log(let line, _) = $0 { return line.contains("cannot push") } else { return false } })
        let real = StepContext(
            stepID: "publish", kind: GitHubReleaseStep.kind, workingDirectory: fixture.directory, environment: [:],
            endpoints: ServiceEndpoints(overrides: [.github: fixture.url]), promisedPaths: [fixture.directory + "/build/Demo.zip": "zip"]
        )
        await #expect {
            try await step.verify(in: real)
        } throws: { "\($0)".contains("the token cannot push to 'octo/app'") }
    }

    @Test(arguments: [
        (#"{"repo": "octo", "token": "t", "tag": "v1"}"#, "option 'repo': 'octo' is not of the form 'owner/name'"),
        (#"{"repo": "o/r", "token": " ", "tag": "v1"}"#, "option 'token': the token is empty; pass ${secrets.GITHUB_TOKEN}"),
        (#"{"repo": "o/r", "token": "t", "tag": "v1", "body": "a", "body_file": "b"}"#, "option 'body_file': give either 'body' or 'body_file', not both"),
        (
            #"{"repo": "o/r", "token": "t", "tag": "v1", "api": "https://user:pw@ghe.example/api/v3"}"#,
            "option 'api': the URL must not contain credentials; pass the token as 'token'"
        ),
        (#"{"repo": "o/r", "token": "t", "tag": "v1", "make_latest": "sometimes"}"#, "option 'make_latest': 'sometimes' is not true, false or \"legacy\""),
    ])
    func badOptionsAreRejected(json: String, message: String) throws {
        let options = try Self.decode(GitHubReleaseStep.Options.self, json)
        #expect(throws: StepError.invalidOption(String(message.dropFirst("option '".count).prefix { $0 != "'" }), String(message.split(separator: ": ", maxSplits: 1)[1]))) {
            _ = try GitHubReleaseStep(options: options)
        }
    }

    @Test func anUnknownReplacePolicyIsRejectedWhereItIsWritten() {
        #expect {
            try Self.decode(GitHubReleaseStep.Options.self, #"{"repo": "o/r", "token": "t", "tag": "v1", "replace": "overwrite"}"#)
        } throws: { error in
            let failure = error as? OptionsDecoder.Failure
            return failure?.message == "'overwrite' is not \"fail\", \"replace\" or \"skip\"" && failure?.path == JSONPath.root.appending("replace")
        }
    }

    @Test func uploadAndWebURLsForEnterpriseAndGitHub() {
        #expect(GitHubReleaseStep.webBase(api: "https://api.github.com") == "https://github.com")
        #expect(GitHubReleaseStep.uploadsBase(api: "https://api.github.com") == "https://uploads.github.com")
        #expect(GitHubReleaseStep.webBase(api: "https://ghe.example/api/v3") == "https://ghe.example")
        #expect(GitHubReleaseStep.uploadsBase(api: "https://ghe.example/api/v3") == "https://ghe.example/api/uploads")
        #expect(AssetContentType.forFile(named: "Demo.app.dSYM.zip") == "application/zip")
        #expect(AssetContentType.forFile(named: "Demo.ipa") == "application/octet-stream")
        #expect(AssetContentType.forFile(named: "notes.TXT") == "text/plain")
        #expect(AssetContentType.forFile(named: "manifest.json") == "application/json")
        #expect(AssetContentType.forFile(named: "thing.bin") == "application/octet-stream")
        #expect(GitHubAssetName.normalized(".env") == "default.env")
        #expect(GitHubAssetName.normalized("Démo app.zip") == "D.mo.app.zip")
    }

    @Test func httpUploadSendsRawAndMultipartWithMaskedSecretHeaders() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("Demo.app.dSYM.zip", size: 30_000)
        let release = try await fixture.client().createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1", draft: true))
        let base = URITemplate.expand(release.uploadURL, [:])
        let events = Recorder<StepEvent>()
        let masker = SecretMasker()
        let context = StepContext(
            stepID: "dsym", kind: HTTPUploadStep.kind, workingDirectory: fixture.directory + "/files",
            environment: [:], masker: masker, sink: { events.append($0) })

        let raw = try HTTPUploadStep(
            options: try Self.decode(
                HTTPUploadStep.Options.self,
                """
                {"url": "\(base)?name=raw.zip", "file": "Demo.app.dSYM.zip",
                 "headers": {"Authorization": "Bearer \(GitHubTestFixture.token)"}}
                """))
        let plan = try await raw.plan(in: context)
        guard case .request(_, _, let detail)? = plan.effects.first else { Issue.record("no request planned"); return }
        #expect(detail?.contains("Authorization: ***") == true)
        let outputs = try await raw.run(in: context)
        #expect(outputs["status"] == .number(201))
        #expect(outputs["bytes"] == .number(30_000))
        let stored = try #require(fixture.server.assets(releaseID: release.id).first { $0.name == "raw.zip" })
        #expect(stored.digest == (try fixture.sha256(path)))
        #expect(stored.contentType == "application/zip")

        let multipart = try HTTPUploadStep(
            options: try Self.decode(
                HTTPUploadStep.Options.self,
                """
                {"url": "\(base)?name=form.bin", "file": "Demo.app.dSYM.zip", "headers": {"Authorization": "Bearer \(GitHubTestFixture.token)"},
                 "multipart": {"field": "dsym", "fields": {"version": "3.0.0"}}}
                """))
        _ = try await multipart.run(in: context)
        let form = try #require(fixture.server.assets(releaseID: release.id).first { $0.name == "form.bin" })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.server.assetPath(form.id)))
        let text = String(decoding: bytes.prefix(400), as: UTF8.self)
        #expect(text.contains("Content-Disposition: form-data; name=\"version\"\r\n\r\n3.0.0\r\n"))
        #expect(text.contains("name=\"dsym\"; filename=\"Demo.app.dSYM.zip\"\r\nContent-Type: application/zip\r\n\r\n"))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 30_000)
        #expect(bytes.range(of: original) != nil)
        #expect(form.contentType.hasPrefix("multipart/form-data; boundary="))

        // A rejected upload fails with the status and GitHub's message, the secret masked.
        let rejected = try HTTPUploadStep(
            options: try Self.decode(
                HTTPUploadStep.Options.self,
                """
                {"url": "\(base)?name=raw.zip", "file": "Demo.app.dSYM.zip", "headers": {"Authorization": "Bearer \(GitHubTestFixture.token)"}}
                """))
        await #expect {
            _ = try await rejected.run(in: context)
        } throws: { "\($0)".contains("returned HTTP 422") && "\($0)".contains("already_exists") }
        #expect(!events.all.contains { "\($0)".contains(GitHubTestFixture.token) })
        #expect(throws: StepError.self) {
            _ = try HTTPUploadStep(options: try Self.decode(HTTPUploadStep.Options.self, #"{"url": "https://u:p@x.example/", "file": "a"}"#))
        }
    }
}
