import Foundation
import Rehearsal
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// `notify.slack`: a Block Kit message to a webhook, sent once the steps it follows have finished, on success,
/// failure (a failed step, a rejecting gate, an interrupt) or always; checked byte for byte at a recording server.
@Suite struct NotifySlackStepTests {
    static let webhook = "https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX"

    /// A version step, a publish step (failing with `exit 3` when `fail`), and `notify`'s JSON after them.
    static func pipeline(_ notify: String, fail: Bool = false) -> String {
        let publish = fail ? #""exit 3""# : #""echo url=https://github.com/octo/app/releases/tag/v3.0.0 >> $RELEASE_OUTPUT""#
        return """
            {"version": 1, "name": "ios-release", "steps": [
              {"id": "version", "uses": "shell", "with": {"run": "echo version=3.0.0 >> $RELEASE_OUTPUT; echo build=4321 >> $RELEASE_OUTPUT", "shell": true}},
              {"id": "publish", "uses": "shell", "needs": ["version"], "with": {"run": \(publish), "shell": true}},
              \(notify)]}
            """
    }

    /// Runs `text` with Slack played by `server` (a rehearsal), the webhook in the environment as a secret.
    static func run(
        _ text: String, server: RecordingServer, configure: (inout RunOptions) -> Void = { _ in },
        onStart: (@Sendable (Engine) -> Void)? = nil
    ) async throws -> (RunResult, RecordingReporter) {
        try await TestPipelines.run(
            text,
            configure: { options in
                options.endpoints = ServiceEndpoints(overrides: [.slack: server.url], isolated: true)
                configure(&options)
            }, environment: ["SLACK_WEBHOOK_URL": webhook], onStart: onStart)
    }

    static func server(status: Int = 200, body: String = "ok") throws -> RecordingServer {
        let server = RecordingServer(configuration: .init(status: status, body: body, contentType: "text/plain"))
        try server.start()
        return server
    }

    static func body(_ server: RecordingServer) throws -> String {
        let request = try #require(server.requests.first)
        return String(decoding: try #require(request.body), as: UTF8.self)
    }

    @Test func aSuccessMessageCarriesVersionOutcomeLinksAndContext() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, reporter) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"],
                 "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "links": {"GitHub Release": "{{steps.publish.outputs.url}}"}}}
                """), server: server)
        #expect(result.statuses == ["version=ok", "publish=ok", "tell=ok"])
        #expect(result.step("tell")?.outputs["outcome"] == .string("success"))
        #expect(server.requests.count == 1)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST" && request.path == "/hooks.slack.com/services/T000/B000/XXXXSECRETXXXX")
        #expect(request.header("Content-Type") == "application/json; charset=utf-8")
        #expect(
            try Self.body(server) == #"""
                {"blocks":[{"text":{"emoji":true,"text":"ios-release 3.0.0 (4321) succeeded","type":"plain_text"},"type":"header"},{"text":{"text":"*Version:* 3.0.0 (4321)\n*Outcome:* succeeded","type":"mrkdwn"},"type":"section"},{"text":{"text":"<https://github.com/octo/app/releases/tag/v3.0.0|GitHub Release>","type":"mrkdwn"},"type":"section"},{"elements":[{"text":"pipeline *ios-release* · branch `release/3.0.0` · `0123456`","type":"mrkdwn"}],"type":"context"}],"text":"ios-release 3.0.0 (4321) succeeded"}
                """#)
        // The webhook is a secret: nowhere in what the run printed.
        #expect(!reporter.logLines.joined(separator: "\n").contains("XXXXSECRET"))
        #expect(reporter.logLines.contains { $0.hasPrefix("tell: sent the success message to Slack (") })
    }

    @Test func aFailureMessageNamesTheFailedStepAndLeavesOutItsMissingLink() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, _) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"],
                 "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "failure",
                          "text": "{{failed_steps}} broke {{pipeline}} on {{branch}} at {{sha}} <&>",
                          "links": {"GitHub Release": "{{steps.publish.outputs.url}}", "CI": "https://ci.example/runs/7"}}}
                """, fail: true), server: server)
        #expect(result.statuses == ["version=ok", "publish=failed", "tell=ok"])
        #expect(result.exitCode == 1)
        #expect(
            try Self.body(server) == #"""
                {"blocks":[{"text":{"emoji":true,"text":"ios-release 3.0.0 (4321) failed","type":"plain_text"},"type":"header"},{"text":{"text":"publish broke ios-release on release/3.0.0 at 0123456 <&>","type":"mrkdwn"},"type":"section"},{"text":{"text":"*Failed step:* `publish`: '/bin/sh -c 'exit 3'' exited with status 3","type":"mrkdwn"},"type":"section"},{"text":{"text":"<https://ci.example/runs/7|CI>","type":"mrkdwn"},"type":"section"},{"elements":[{"text":"pipeline *ios-release* · branch `release/3.0.0` · `0123456`","type":"mrkdwn"}],"type":"context"}],"text":"ios-release 3.0.0 (4321) failed"}
                """#)
    }

    @Test func onSuccessSendsNothingAfterAFailureAndSaysSo() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, _) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "success"}}
                """, fail: true), server: server)
        #expect(result.statuses == ["version=ok", "publish=failed", "tell=skipped"])
        #expect(result.step("tell")?.message == "not sent: the outcome is failure and 'on' is success")
        #expect(server.requests.isEmpty)
    }

    @Test func onFailureSendsNothingAfterASuccess() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, _) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "failure"}}
                """), server: server)
        #expect(result.step("tell")?.status == .skipped)
        #expect(result.step("tell")?.message == "not sent: the outcome is success and 'on' is failure")
        #expect(server.requests.isEmpty)
    }

    @Test func withoutNeedsItWaitsForEveryStepAndReportsUnrelatedFailures() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let text = """
            {"version": 1, "name": "ios-release", "steps": [
              {"id": "tell", "uses": "notify.slack", "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "text": "{{outcome}}: {{failed_step}}"}},
              {"id": "slow", "uses": "test.work", "with": {"board": "slack-\(UUID())", "milliseconds": 300}},
              {"id": "broken", "uses": "shell", "with": {"run": ["false"]}}]}
            """
        let (result, reporter) = try await Self.run(text, server: server, configure: { $0.keepGoing = true })
        #expect(result.statuses == ["slow=ok", "broken=failed", "tell=ok"])
        #expect(reporter.started.last == "tell")
        #expect(try Self.body(server).contains(#"{"text":"failed: broken","type":"mrkdwn"}"#))
    }

    @Test func onlyKeepsANotificationThatNeedsNothing() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, _) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "title": "{{outcome}}"}}
                """), server: server, configure: { $0.only = ["version"] })
        #expect(result.statuses == ["version=ok", "publish=skipped", "tell=ok"])
        #expect(server.requests.count == 1)
    }

    @Test func anInterruptedRunIsReportedByAFailureNotification() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let text = """
            {"version": 1, "name": "ios-release", "steps": [
              {"id": "long", "uses": "test.work", "with": {"board": "slack-interrupt", "milliseconds": 600000}},
              {"id": "tell", "uses": "notify.slack", "needs": ["long"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "failure", "title": "{{outcome}}"}}]}
            """
        let (result, _) = try await Self.run(
            text, server: server,
            onStart: { engine in
                Task {
                    // Interrupt once the long step is really running, whatever the machine's load: a fixed delay
                    // could land before the run starts (the interrupt is then lost) or after the step is over.
                    while Blackboard.shared.value("slack-interrupt", "running") == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    engine.interrupt()
                }
            })
        #expect(result.statuses == ["long=cancelled", "tell=ok"])
        #expect(result.exitCode == ExitCodes.interrupted)
        #expect(try Self.body(server).hasPrefix(#"{"blocks":[{"text":{"emoji":true,"text":"interrupted","type":"plain_text"},"type":"header"}"#))
    }

    @Test func aDryRunDescribesTheRequestWithTheWebhookMasked() async throws {
        let (result, _) = try await TestPipelines.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "failure"}}
                """), configure: { $0.dryRun = true }, environment: ["SLACK_WEBHOOK_URL": Self.webhook])
        #expect(result.step("tell")?.status == .planned)
        #expect(result.step("tell")?.effects == [.request(method: "POST", url: "***", detail: "Slack message if the outcome is failure of the steps it follows")])
    }

    @Test func aRehearsalWithoutASlackStandInSkipsIt() async throws {
        let (result, _) = try await TestPipelines.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}"}}
                """), configure: { $0.endpoints = ServiceEndpoints(isolated: true) }, environment: ["SLACK_WEBHOOK_URL": Self.webhook])
        #expect(result.step("tell")?.status == .skipped)
        #expect(result.step("tell")?.message == "this rehearsal has no local stand-in for 'slack', so nothing was sent")
    }

    @Test func slacksRefusalFailsTheStepWithItsAnswer() async throws {
        let server = try Self.server(status: 404, body: "no_service")
        defer { server.stop() }
        let (result, _) = try await Self.run(
            Self.pipeline(
                """
                {"id": "tell", "uses": "notify.slack", "needs": ["publish"], "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}"}}
                """), server: server)
        #expect(result.step("tell")?.status == .failed)
        #expect(result.step("tell")?.message == "Slack refused the message: HTTP 404 'no_service'")
    }

    @Test func theRehearsalPathOfTheWebhookIsMaskedToo() async throws {
        let masker = SecretMasker()
        let step = try NotifySlackStep(options: decodeOptions(NotifySlackStep.Options.self, #"{"webhook": "\#(Self.webhook)"}"#))
        let context = StepContext(stepID: "tell", kind: NotifySlackStep.kind, workingDirectory: "/", environment: [:], masker: masker)
        try await step.verify(in: context)
        #expect(masker.mask("POST /hooks.slack.com/services/T000/B000/XXXXSECRETXXXX  900 bytes") == "POST /***  900 bytes")
    }

    @Test(arguments: [
        (#"{"webhook": "hooks.slack.com/services/T/B/X"}"#, "option 'webhook': not an http(s) URL (the value is not shown: it is a secret)"),
        (
            #"{"webhook": "https://hooks.slack.com/x", "text": "{{outcom}}"}"#,
            "option 'text': unknown placeholder '{{outcom}}' (known: {{pipeline}}, {{profile}}, {{branch}}, {{sha}}, {{outcome}}, {{version}}, {{failed_steps}}, {{failed_step}}, {{steps.ID.outputs.KEY}})"
        ),
        (
            #"{"webhook": "https://hooks.slack.com/x", "links": {"a": "{{steps.x.url}}"}}"#,
            "option 'links': unknown placeholder '{{steps.x.url}}' (known: {{pipeline}}, {{profile}}, {{branch}}, {{sha}}, {{outcome}}, {{version}}, {{failed_steps}}, {{failed_step}}, {{steps.ID.outputs.KEY}})"
        ),
    ])
    func badOptionsAreRejectedBeforeAnythingRuns(json: String, message: String) {
        do {
            _ = try NotifySlackStep(options: decodeOptions(NotifySlackStep.Options.self, json))
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    /// Issue 22 item 10: what `{{…}}` placeholders bring in (step outputs, the version) and link URLs are escaped
    /// for mrkdwn, so a step output cannot notify the channel (`<!channel>`, `<!here>`), add a link of its own, or
    /// move a link's target; the author's own text is markup as written. The notification text (mrkdwn) is escaped
    /// too; the header is plain text and shows the value as typed.
    @Test func placeholderValuesAndLinkURLsAreEscapedForMrkdwn() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (result, _) = try await Self.run(
            """
            {"version": 1, "name": "ios-release", "steps": [
              {"id": "out", "uses": "shell", "with": {"shell": true,
               "run": "printf '%s\\n' 'version=<!channel>' 'note=<!here> & <https://evil.example|Release>' 'url=https://ci.example/?a=1&b=<!channel>|click' >> $RELEASE_OUTPUT"}},
              {"id": "tell", "uses": "notify.slack", "needs": ["out"],
               "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "title": "{{version}} done",
                        "text": "*Note:* {{steps.out.outputs.note}}", "links": {"CI": "{{steps.out.outputs.url}}"}}}]}
            """, server: server)
        #expect(result.statuses == ["out=ok", "tell=ok"])
        #expect(
            try Self.body(server) == #"""
                {"blocks":[{"text":{"emoji":true,"text":"<!channel> done","type":"plain_text"},"type":"header"},{"text":{"text":"*Note:* &lt;!here&gt; &amp; &lt;https://evil.example|Release&gt;","type":"mrkdwn"},"type":"section"},{"text":{"text":"<https://ci.example/?a=1&amp;b=&lt;!channel&gt;%7Cclick|CI>","type":"mrkdwn"},"type":"section"},{"elements":[{"text":"pipeline *ios-release* · branch `release/3.0.0` · `0123456`","type":"mrkdwn"}],"type":"context"}],"text":"&lt;!channel&gt; done"}
                """#)
    }

    /// A secret holding mrkdwn's special characters is masked before it is escaped (escaped first, it would no longer
    /// be the text the masker looks for).
    @Test func aSecretWithMarkupCharactersIsMaskedBeforeItIsEscaped() async throws {
        let masker = SecretMasker()
        masker.add("s3<cr&t>")
        let step = try NotifySlackStep(
            options: decodeOptions(
                NotifySlackStep.Options.self,
                #"{"webhook": "https://hooks.slack.com/x", "text": "token {{steps.a.outputs.t}}", "links": {"L": "https://x.example/{{steps.a.outputs.t}}"}}"#))
        let status = RunStatus(pipeline: "p", outcome: .success, followed: ["a"], outputs: ["a": ["t": .string("s3<cr&t>")]])
        let body = String(decoding: try step.message(for: status, masker: masker).json(), as: UTF8.self)
        #expect(body.contains(#""text":"token ***""#) && body.contains("<https://x.example/***|L>"), "\(body)")
        #expect(!body.contains("s3"), "\(body)")
    }

    @Test func anOnThatIsNotAWordItKnowsIsAValidationError() {
        let problems = TestPipelines.problems(#"{"version": 1, "steps": [{"id": "t", "uses": "notify.slack", "with": {"webhook": "https://h.example/x", "on": "sometimes"}}]}"#)
        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix("'sometimes' is not one of success, failure, always, waiting") == true, "\(problems)")
    }

    /// Issue 40 F19: a link's label kept its placeholders unfilled (`Get {{steps.o.outputs.v}}`); it is filled like the
    /// URL, masked and escaped.
    @Test func linkLabelsFillTheirPlaceholders() throws {
        let masker = SecretMasker()
        masker.add("tok3n-label")
        let step = try NotifySlackStep(
            options: decodeOptions(
                NotifySlackStep.Options.self,
                #"{"webhook": "https://hooks.slack.com/x", "links": {"Get {{steps.o.outputs.v}} <{{steps.o.outputs.t}}>": "https://x.example/{{steps.o.outputs.v}}"}}"#))
        let status = RunStatus(pipeline: "p", outcome: .success, followed: ["o"], outputs: ["o": ["v": .string("3.0.0"), "t": .string("tok3n-label")]])
        let body = String(decoding: try step.message(for: status, masker: masker).json(), as: UTF8.self)
        #expect(body.contains("<https://x.example/3.0.0|Get 3.0.0 &lt;***&gt;>"), "\(body)")
        #expect(!body.contains("{{"), "\(body)")
        #expect(throws: StepError.self) {
            try NotifySlackStep(options: decodeOptions(NotifySlackStep.Options.self, #"{"webhook": "https://hooks.slack.com/x", "links": {"{{nope}}": "https://x"}}"#))
        }
    }
}
