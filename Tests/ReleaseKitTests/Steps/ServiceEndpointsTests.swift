import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseHTTP
@testable import ReleasePlanning
@testable import ReleaseSteps

/// Where steps reach remote services, and that a rehearsal reaches nothing but its stand-ins.
@Suite struct ServiceEndpointsTests {
    @Test func overridesReplaceAPIBaseURLs() throws {
        let endpoints = ServiceEndpoints(overrides: [.github: "http://127.0.0.1:4000/"], isolated: true)
        #expect(try endpoints.baseURL(.github, configured: "https://api.github.com") == "http://127.0.0.1:4000")
        #expect(try ServiceEndpoints.live.baseURL(.github, configured: "https://ghe.example.com/api/v3/") == "https://ghe.example.com/api/v3")
    }

    @Test func genericURLsKeepTheirHostAndPathBehindTheStandIn() throws {
        let endpoints = ServiceEndpoints(overrides: [.http: "http://127.0.0.1:4001", .slack: "http://127.0.0.1:4002"], isolated: true)
        #expect(
            try endpoints.url(.http, for: "https://upload.example.com:8443/api/v1/dsyms?app=demo&key=a%20b")
                == "http://127.0.0.1:4001/upload.example.com:8443/api/v1/dsyms?app=demo&key=a%20b")
        #expect(try endpoints.url(.slack, for: "https://hooks.slack.com/services/T0/B0/XYZ") == "http://127.0.0.1:4002/hooks.slack.com/services/T0/B0/XYZ")
        #expect(try ServiceEndpoints.live.url(.http, for: "https://upload.example.com/x") == "https://upload.example.com/x")
    }

    @Test func anIsolatedRunWithoutAStandInCannotReachTheService() {
        let endpoints = ServiceEndpoints(overrides: [.github: "http://127.0.0.1:4000"], isolated: true)
        #expect(throws: StepError.unavailable("this rehearsal has no local stand-in for 'appstore', so nothing was sent")) {
            try endpoints.baseURL(.appstore, configured: "https://api.appstoreconnect.apple.com")
        }
        #expect(throws: StepError.unavailable("this rehearsal has no local stand-in for 'http', so nothing was sent")) {
            try endpoints.url(.http, for: "https://upload.example.com/x")
        }
    }

    @Test func clientsOfAnIsolatedRunRefuseOtherHostsBeforeConnecting() async throws {
        let context = StepContext(
            stepID: "s", kind: "k", workingDirectory: "/", environment: [:],
            endpoints: ServiceEndpoints(isolated: true))
        let client = context.httpClient(for: .http)
        await #expect(throws: HTTPError.hostNotAllowed(host: "example.com", url: "https://example.com/upload")) {
            _ = try await client.perform(HTTPRequest(method: "POST", url: "https://example.com/upload"))
        }
    }

    /// A rehearsal without an `http` stand-in skips `http.upload` (and what uses its outputs) and says why;
    /// the rest of the run goes on.
    @Test func aStepWithoutAStandInIsSkippedWithAMessage() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try "dsym".write(toFile: directory + "/app.zip", atomically: true, encoding: .utf8)
        let text = #"""
            {"version": 1, "steps": [
              {"id": "upload", "uses": "http.upload", "with": {"url": "https://upload.example.com/dsyms", "file": "app.zip"}},
              {"id": "after", "uses": "print", "with": {"message": "status ${steps.upload.outputs.status}"}},
              {"id": "other", "uses": "print", "with": {"message": "still runs"}}
            ]}
            """#
        let (result, _) = try await TestPipelines.run(
            text,
            configure: {
                $0.workingDirectory = directory
                $0.endpoints = ServiceEndpoints(isolated: true)
            })
        #expect(result.exitCode == 0)
        #expect(result.statuses == ["upload=skipped", "after=skipped", "other=ok"])
        #expect(result.step("upload")?.message == "this rehearsal has no local stand-in for 'http', so nothing was sent")
        #expect(result.step("after")?.message == "uses outputs of 'upload', which is skipped")
    }
}
