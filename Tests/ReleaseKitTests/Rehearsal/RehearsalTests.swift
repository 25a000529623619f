import Foundation
import Testing
import Rehearsal
@testable import ReleaseKit

/// `release run --rehearse`'s stand-ins, started together.
@Suite("Rehearsal")
struct RehearsalTests {
    @Test func startsEveryStandInAndSummarisesWhatTheyReceived() async throws {
        let storage = NSTemporaryDirectory() + "release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let rehearsal = try Rehearsal(storage: storage, environment: ["HOME": "/home/x"])
        defer { rehearsal.stop() }

        #expect(Set(rehearsal.endpoints.keys) == [.github, .appstore, .http, .slack])
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

        #expect(rehearsal.summary().hasSuffix("""
        rehearsal: local HTTP endpoint \(http)
          POST /hooks/T1/B2  5 bytes  200  sha256:\(FileDigest.sha256(of: Data("hello".utf8)))

        """))
    }

    @Test func keepsAGivenToken() throws {
        let storage = NSTemporaryDirectory() + "release-rehearsal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: storage) }
        let rehearsal = try Rehearsal(storage: storage, environment: ["GITHUB_TOKEN": "ghp_given"])
        defer { rehearsal.stop() }
        #expect(rehearsal.environment["GITHUB_TOKEN"] == "ghp_given")
        #expect(rehearsal.github.configuration.token == "ghp_given")
    }
}
