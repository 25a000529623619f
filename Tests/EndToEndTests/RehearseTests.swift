import Foundation
import Rehearsal
import Testing

/// `release run --rehearse` touches nothing outside the machine: every remote service a step talks to is a
/// local stand-in, or the step is skipped and says so.
@Suite struct RehearseTests {
    /// The host the URL variables name: `127.1`, another spelling of 127.0.0.1 (inet_aton's, which curl and
    /// getaddrinfo accept on Linux and macOS alike) that is not among the hosts a rehearsal's clients may reach. A
    /// Mac serves no other loopback address (lo0 has 127.0.0.1 only unless aliased), so the sentinel listens on
    /// 127.0.0.1 and is "remote" by name only.
    static let remoteHost = "127.1"

    /// Plays "the internet": every URL variable points at it, so any request a rehearsal sent to a real endpoint
    /// would land here.
    private static func sentinel() throws -> (RecordingServer, String) {
        let server = RecordingServer(configuration: .init(status: 500, body: "a rehearsal reached a real endpoint"))
        let base = try server.start()
        return (server, base.replacingOccurrences(of: "//127.0.0.1:", with: "//\(remoteHost):"))
    }

    private static func urlVariables(_ base: String) -> [String: String] {
        [
            "CRASH_REPORTER_URL": base + "/crash/upload",
            "TESTERS_UPLOAD_URL": base + "/testers/upload",
            "GITHUB_API_URL": base + "/github-api",
            "APP_STORE_CONNECT_API_URL": base + "/appstore",
            "SLACK_WEBHOOK_URL": base + "/slack/T0/B0/X",
            "CRASH_REPORTER_KEY": "key-0123456789abcdef",
            "GITHUB_TOKEN": "ghp_rehearsalToken0123456789",
            "ITMS_USERNAME": "release@example.com",
            "ITMS_PASSWORD": "app-specific-password",
        ]
    }

    @Test func everyRemoteCallGoesToAStandIn() throws {
        let (sentinel, base) = try Self.sentinel()
        defer { sentinel.stop() }
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/remote.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "remote.json", "--rehearse"], in: directory, environment: Self.urlVariables(base))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(sentinel.requests.isEmpty, "reached: \(sentinel.summary())")
        // The stand-ins received what the real services would have, with the original hosts kept.
        #expect(outcome.stderr.contains("POST /\(Self.remoteHost):"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("/crash/upload"))
        #expect(outcome.stderr.contains("PUT /\(Self.remoteHost):"))
        #expect(outcome.stderr.contains("owner/app v1.0.0"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("key-0123456789abcdef"))
    }

    @Test func theDistributePipelineReachesNothingOutside() throws {
        let (sentinel, base) = try Self.sentinel()
        defer { sentinel.stop() }
        let directory = try ReleaseBinary.prepareDemo()
        for branch in ["release/3.0.1", "develop"] {
            try ReleaseBinary.git(["checkout", "-q", "-B", branch], in: directory)
            let outcome = try ReleaseBinary.run(["run", "distribute", "--rehearse", "--os", "linux"], in: directory, environment: Self.urlVariables(base))
            #expect([0, 1, 2].contains(outcome.status), "\(outcome.stderr)")
            #expect(sentinel.requests.isEmpty, "\(branch) reached: \(sentinel.summary())")
        }
    }
}
