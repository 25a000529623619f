import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseGitHub
@testable import ReleaseHTTP
@testable import ReleaseSteps
@testable import ReleaseSupport

/// `release run --rehearse`'s stand-ins, started together.
@Suite("Rehearsal")
struct RehearsalTests {
    @Test func startsEveryStandInAndSummarisesWhatTheyReceived() async throws {
        let storage = TestTemporary.root + "/release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let rehearsal = try Rehearsal(storage: storage, environment: ["HOME": "/home/x"])
        defer { rehearsal.stop() }

        #expect(Set(rehearsal.endpoints.keys) == [.github, .appstore, .http, .slack, .git, .sentry])
        #expect(rehearsal.endpoints[.git] == storage + "/git")
        #expect(rehearsal.endpoints[.slack] == rehearsal.endpoints[.http])
        let github = try #require(rehearsal.endpoints[.github])
        let http = try #require(rehearsal.endpoints[.http])
        #expect(github.hasPrefix("http://127.0.0.1:") && http.hasPrefix("http://127.0.0.1:") && github != http)
        // No token in the environment: one is made up, and the GitHub stand-in accepts it.
        let token = try #require(rehearsal.environment["GITHUB_TOKEN"])
        #expect(token.hasPrefix("rehearsal-"))
        #expect(rehearsal.environment["HOME"] == "/home/x")
        #expect(try await GitHubClient(apiURL: github, token: token).authenticatedUser() == "release-bot")
        #expect(rehearsal.summary().contains("  nothing was published\n"))
        #expect(rehearsal.summary().hasSuffix("rehearsal: local HTTP endpoint \(http)\n  nothing was received\n"))

        let response = try await HTTPClient().send(HTTPRequest(method: "POST", url: http + "/hooks/T1/B2", body: .data(Data("hello".utf8))))
        #expect(response.status == 200)

        #expect(
            rehearsal.summary().hasSuffix(
                """
                rehearsal: local HTTP endpoint \(http)
                  POST /hooks/T1/B2  5 bytes  200  sha256:\(FileDigest.sha256(of: Data("hello".utf8)))

                """))
    }

    @Test func keepsAGivenToken() throws {
        let storage = TestTemporary.root + "/release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let rehearsal = try Rehearsal(storage: storage, environment: ["GITHUB_TOKEN": "ghp_given"])
        defer { rehearsal.stop() }
        #expect(rehearsal.environment["GITHUB_TOKEN"] == "ghp_given")
        #expect(rehearsal.github.configuration.token == "ghp_given")
    }

    @Test func theAppStoreConnectStandInAcceptsAGeneratedOrTheGivenKey() async throws {
        let storage = TestTemporary.root + "/release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let generated = try Rehearsal(storage: storage, environment: [:])
        let environment = generated.environment
        let pem = try #require(environment["APP_STORE_CONNECT_KEY"])
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"), "a PKCS#8 PEM, like Apple's .p8")
        let key = try AppStoreConnectKey(
            id: try #require(environment["APP_STORE_CONNECT_KEY_ID"]), issuer: try #require(environment["APP_STORE_CONNECT_ISSUER_ID"]), pem: pem)
        let url = try #require(generated.endpoints[.appstore])
        let client = try AppStoreConnectClient(apiURL: url, key: key, http: HTTPClient())
        _ = try await client.send("GET", "/v1/apps?filter%5BbundleId%5D=com.example.rehearsed")
        #expect(generated.appStore.configuration.storageDirectory == storage + "/appstore")
        #expect(generated.summary().contains("rehearsal: local App Store Connect \(url) (kept in \(storage)/appstore)\n  nothing was uploaded\n"))
        let fields = try #require(generated.summaryFields()["appstore"] as? [String: Any])
        #expect(fields["url"] as? String == url)
        generated.stop()

        // A second rehearsal with the key now given accepts it, and finds the app the first one created.
        let again = try Rehearsal(storage: storage, environment: environment)
        defer { again.stop() }
        #expect(again.environment["APP_STORE_CONNECT_KEY"] == pem)
        let second = try AppStoreConnectClient(apiURL: try #require(again.endpoints[.appstore]), key: key, http: HTTPClient())
        let apps = try JSONSerialization.jsonObject(with: try await second.send("GET", "/v1/apps")) as? [String: Any]
        #expect((apps?["data"] as? [Any])?.count == 1)
    }
}

/// A rehearsal needs no real secret: each one the pipeline names and the environment lacks gets a placeholder,
/// named in the header (issue 23, item 3).
@Suite struct RehearsalPlaceholderTests {
    @Test func unsetSecretsGetPlaceholdersAndTheHeaderSaysWhatIsReal() throws {
        let storage = TestTemporary.root + "/release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let rehearsal = try Rehearsal(
            storage: storage, environment: ["CRASH_KEY": "given"],
            secrets: ["SLACK_WEBHOOK_URL", "CRASH_KEY", "SIGNING_PASSWORD", "GITHUB_TOKEN"])
        defer { rehearsal.stop() }
        #expect(rehearsal.placeholderSecrets == ["GITHUB_TOKEN", "SIGNING_PASSWORD", "SLACK_WEBHOOK_URL"])
        #expect(rehearsal.environment["CRASH_KEY"] == "given")
        #expect(try #require(rehearsal.environment["SLACK_WEBHOOK_URL"]).hasPrefix("https://rehearsal.invalid/slack_webhook_url/"))
        #expect(try #require(rehearsal.environment["SIGNING_PASSWORD"]).hasPrefix("rehearsal-"))
        #expect(
            rehearsal.header() == """
                rehearsal: GitHub, App Store Connect, Sentry, HTTP uploads and Slack webhooks go to local stand-ins on 127.0.0.1, git pushes to local bare repositories; nothing leaves the machine
                rehearsal: local changes are real: the version bump, commits, tags and files the steps write happen in this checkout
                rehearsal: placeholder values (masked) for secrets that are not set: GITHUB_TOKEN, SIGNING_PASSWORD, SLACK_WEBHOOK_URL

                """)
    }
}
