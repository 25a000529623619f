import Foundation
import Rehearsal
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps

/// Text that may carry a secret is masked before it is cut short: cut first, a secret straddling the cut loses its
/// last characters, is no longer recognised, and the rest of it is shown in clear.
@Suite struct MaskBeforeCutTests {
    static let token = "ghp_StraddlesTheCut0123456789abcdef"

    /// `http.upload` quotes 300 characters of a refused upload's answer; the server echoes the token across the cut.
    @Test func httpUploadMasksTheAnswerBeforeCuttingIt() async throws {
        let answer = String(repeating: "x", count: 290) + Self.token + " and more"
        let server = RecordingServer(configuration: .init(status: 422, body: answer, contentType: "text/plain"))
        try server.start()
        defer { server.stop() }
        let directory = TestPipelines.temporaryDirectory()
        try "dsym".write(toFile: directory + "/app.zip", atomically: true, encoding: .utf8)
        let text = #"""
            {"version": 1, "steps": [
              {"id": "upload", "uses": "http.upload", "with": {"url": "\#(server.url)/upload", "file": "app.zip",
               "headers": {"Authorization": "Bearer ${secrets.REL_TOKEN}"}}}
            ]}
            """#
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory }, environment: ["REL_TOKEN": Self.token])
        let message = try #require(result.step("upload")?.message)
        #expect(result.step("upload")?.status == .failed)
        #expect(!message.contains(String(Self.token.prefix(10))), "\(message)")
        #expect(message.contains(String(repeating: "x", count: 290) + "***"), "\(message)")
    }

    /// `notify.slack` quotes 200 characters of Slack's refusal; here it echoes the webhook's secret path at the cut.
    @Test func notifySlackMasksTheRefusalBeforeCuttingIt() async throws {
        let path = "/services/T000/B000/XXXXSECRETXXXX"
        let answer = String(repeating: "y", count: 200 - 27) + path + " is not valid"
        let server = try NotifySlackStepTests.server(status: 404, body: answer)
        defer { server.stop() }
        let (result, _) = try await NotifySlackStepTests.run(
            NotifySlackStepTests.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}"}}
                """), server: server)
        let message = try #require(result.step("tell")?.message)
        #expect(result.step("tell")?.status == .failed)
        #expect(!message.contains("XXXXSEC"), "\(message)")
        #expect(message.contains(String(repeating: "y", count: 200 - 27) + "***"), "\(message)")
    }

    /// The `body` output (cut at 65,536 characters) is masked before it is cut too.
    @Test func httpUploadMasksTheBodyOutputBeforeCuttingIt() async throws {
        let answer = String(repeating: "z", count: 65_536 - 10) + Self.token
        let server = RecordingServer(configuration: .init(status: 200, body: answer, contentType: "text/plain"))
        try server.start()
        defer { server.stop() }
        let directory = TestPipelines.temporaryDirectory()
        try "dsym".write(toFile: directory + "/app.zip", atomically: true, encoding: .utf8)
        let text = #"""
            {"version": 1, "steps": [
              {"id": "upload", "uses": "http.upload", "with": {"url": "\#(server.url)/upload", "file": "app.zip",
               "headers": {"X-Api-Key": "${secrets.REL_TOKEN}"}}}
            ]}
            """#
        let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = directory }, environment: ["REL_TOKEN": Self.token])
        #expect(result.exitCode == 0)
        guard case .string(let body)? = result.step("upload")?.outputs["body"] else {
            Issue.record("no body output")
            return
        }
        #expect(body == String(repeating: "z", count: 65_536 - 10) + "***")
    }
}
