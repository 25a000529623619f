import Foundation
import ReleaseHTTP
import ReleaseSupport

/// `notify.slack`: posts a Block Kit message about the run to a Slack incoming webhook.
///
/// A ``RunReportingStep``: it runs once the steps it follows have finished, whatever their outcome (and after
/// Ctrl-C), and sends when `on` matches how they went. Its texts take `{{…}}` placeholders filled from the run:
/// the outcome, the version, the failed steps and any followed step's outputs. These are read when it runs, so a
/// failed step's missing outputs leave a placeholder empty instead of failing the notification, as a `${steps…}`
/// reference would. The webhook URL is a secret: masked everywhere, never quoted in a message.
package struct NotifySlackStep: RunReportingStep {
    /// When to send.
    package enum When: String, OptionChoice, Equatable {
        case success
        /// A step failed, a gate rejected the release, or the run was interrupted.
        case failure
        case always
        /// A step's wait budget ran out while Apple was still at it (the run is not done, and not failed).
        case waiting

        func matches(_ outcome: RunStatus.Outcome) -> Bool {
            switch self {
            case .always: return true
            case .success: return outcome == .success
            case .failure: return outcome == .failure || outcome == .cancelled
            case .waiting: return outcome == .waiting
            }
        }
    }

    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "the incoming webhook URL, normally ${secrets.SLACK_WEBHOOK_URL}")
        package var webhook: String
        @StepOption(
            help:
                "when to send, judged once the steps it follows have finished: 'failure' also covers a rejecting gate and an interrupted run; 'waiting' is a run that ended waiting on Apple (a wait budget ran out)"
        )
        package var on: When = .always
        @StepOption(help: "the header, plain text (at most 150 characters); {{…}} placeholders as for 'text'")
        package var title: String = "{{pipeline}} {{version}} {{outcome}}"
        @StepOption(
            help:
                "the message in Slack mrkdwn (default: version and outcome); placeholders {{pipeline}}, {{profile}}, {{branch}}, {{sha}}, {{outcome}}, {{version}}, {{failed_steps}}, {{failed_step}}, {{steps.ID.outputs.KEY}}"
        )
        package var text: String?
        @StepOption(help: "what {{version}} shows (default: the 'version' and 'build' outputs of the first followed step that has them, as '3.0.0 (4321)')")
        package var version: String?
        @StepOption(help: "links shown under the message, label → URL; placeholders allowed in both; a link whose URL comes out empty (a step that failed) is left out")
        package var links: [String: String] = [:]

        package init() {}
    }

    package static let kind = "notify.slack"
    package static let summary = "Post a Block Kit message about the run to a Slack incoming webhook, on success, failure or always"
    package static let outputs: [StepDocumentation.Output] = [
        .init("outcome", "string", "the outcome the message reported: success, failure, cancelled or waiting")
    ]
    package static let example = """
        {"id": "tell-slack", "uses": "notify.slack", "needs": ["publish"],
         "with": {"webhook": "${secrets.SLACK_WEBHOOK_URL}", "on": "always",
                  "links": {"GitHub Release": "{{steps.publish.outputs.url}}"}}}
        """

    /// Placeholder names besides `steps.ID.outputs.KEY`.
    static let placeholders = ["pipeline", "profile", "branch", "sha", "outcome", "version", "failed_steps", "failed_step"]

    package let options: Options

    package init(options: Options) throws {
        try options.validate()
        guard HTTPRequest.httpComponents(options.webhook) != nil else {
            // Never the URL itself: it is the secret.
            throw StepError.invalidOption("webhook", "not an http(s) URL (the value is not shown: it is a secret)")
        }
        var templates = [("title", options.title)]
        if let text = options.text { templates.append(("text", text)) }
        if let version = options.version { templates.append(("version", version)) }
        templates += options.links.sorted { $0.key < $1.key }.flatMap { [("links", $0.key), ("links", $0.value)] }
        for (option, template) in templates {
            for name in Self.names(in: template) where !Self.placeholders.contains(name) && Self.stepOutput(name) == nil {
                throw StepError.invalidOption(
                    option, "unknown placeholder '{{\(name)}}' (known: \(Self.placeholders.map { "{{\($0)}}" }.joined(separator: ", ")), {{steps.ID.outputs.KEY}})")
            }
        }
        self.options = options
    }

    // MARK: Step

    package func verify(in context: StepContext) async throws {
        registerSecrets(context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        registerSecrets(context)
        let url = try context.url(.slack, for: options.webhook)
        let when = options.on == .always ? "whatever the outcome" : "if the outcome is \(options.on.rawValue)"
        return StepPlan(
            effects: [.request(method: "POST", url: context.masker.mask(url), detail: "Slack message \(when) of the steps it follows")],
            outputs: StepOutputs(["outcome": .string("")])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        registerSecrets(context)
        guard let status = context.run else { throw InternalError("notify.slack ran without the run's status") }
        guard options.on.matches(status.outcome) else {
            throw StepError.unavailable("not sent: the outcome is \(status.outcome.rawValue) and 'on' is \(options.on.rawValue)")
        }
        let body = try message(for: status, masker: context.masker).json()
        let url = try context.url(.slack, for: options.webhook)
        let request = HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "application/json; charset=utf-8")], body: .data(body))
        let response: HTTPResponse
        do {
            response = try await context.httpClient(for: .slack).send(request)
        } catch let error as HTTPError {
            throw StepError.failed(context.masker.mask(error.description))
        }
        guard response.isSuccess else {
            // Slack answers with a word: invalid_payload, invalid_token, no_service, channel_is_archived.
            let answer = context.masker.mask(response.text.trimmingCharacters(in: .whitespacesAndNewlines), limit: 200)
            throw StepError.failed(context.masker.mask("Slack refused the message: HTTP \(response.status)" + (answer.isEmpty ? "" : " '\(answer)'")))
        }
        context.log("sent the \(status.outcome.rawValue) message to Slack (\(ByteFormat.size(Int64(body.count))))")
        return StepOutputs(["outcome": .string(status.outcome.rawValue)])
    }

    /// The webhook, its host and path, and its path: a rehearsal sends it to the stand-in as `/HOST/PATH`, which
    /// must be masked wherever that shows too.
    private func registerSecrets(_ context: StepContext) {
        context.masker.add(options.webhook)
        guard let components = URLComponents(string: options.webhook), let host = components.hostWithoutIDNA else { return }
        let path = components.percentEncodedPath
        if path.count >= 8 {
            context.masker.add(host + path)
            context.masker.add(path)
        }
    }

    // MARK: The message

    /// The message for `status`, every text masked.
    func message(for status: RunStatus, masker: SecretMasker) -> SlackMessage {
        // Values are masked before they are escaped for mrkdwn: escaped, a secret holding `&`, `<` or `>` would no
        // longer be the text the masker looks for.
        let title = render(options.title, status, escape: false).split(separator: " ").joined(separator: " ")
        var blocks: [SlackMessage.Block] = [.header(masker.mask(title))]
        if let text = options.text {
            blocks.append(.section(masker.mask(render(text, status, escape: true, masker: masker))))
        } else {
            var lines: [String] = []
            let version = self.version(status)
            if !version.isEmpty { lines.append("*Version:* " + SlackMessage.escaped(masker.mask(version))) }
            lines.append("*Outcome:* " + Self.word(status.outcome))
            blocks.append(.section(masker.mask(lines.joined(separator: "\n"))))
        }
        if !status.failures.isEmpty {
            let lines = status.failures.map { failure in
                "*Failed step:* `\(failure.step)`: " + SlackMessage.escaped(SlackMessage.limited(failure.message, 300))
            }
            blocks.append(.section(masker.mask(lines.joined(separator: "\n"))))
        }
        let links = options.links.sorted { $0.key < $1.key }.compactMap { label, template -> String? in
            let url = masker.mask(render(template, status, escape: false, masker: masker))
            // The label takes placeholders too ("Get {{steps.o.outputs.v}}"), filled like the URL.
            let text = masker.mask(render(label, status, escape: false, masker: masker))
            return url.isEmpty ? nil : "<\(SlackMessage.linkTarget(url))|\(SlackMessage.escaped(text))>"
        }
        if !links.isEmpty { blocks.append(.section(masker.mask(links.joined(separator: " · ")))) }
        var context = ["pipeline *\(SlackMessage.escaped(status.pipeline))*"]
        if let profile = status.profile { context.append("profile *\(SlackMessage.escaped(profile))*") }
        if let branch = status.branch { context.append("branch `\(SlackMessage.escaped(branch))`") }
        if let sha = status.sha { context.append("`\(sha.prefix(7))`") }
        if status.dryRun { context.append("dry run") }
        blocks.append(.context([masker.mask(context.joined(separator: " · "))]))
        // The notification text is mrkdwn too (the header is plain text, shown as typed).
        return SlackMessage(text: SlackMessage.escaped(masker.mask(title)), blocks: blocks)
    }

    /// How the outcome reads in a message.
    static func word(_ outcome: RunStatus.Outcome) -> String {
        switch outcome {
        case .success: return "succeeded"
        case .failure: return "failed"
        case .cancelled: return "interrupted"
        case .waiting: return "is waiting on Apple"
        }
    }

    /// `{{version}}`: the option, else `version (build)` from the first followed step with a `version` output.
    func version(_ status: RunStatus) -> String {
        if let version = options.version { return render(version, status, escape: false) }
        for id in status.followed {
            guard let outputs = status.outputs[id], let version = outputs["version"]?.text, !version.isEmpty else { continue }
            return outputs["build"].map { "\(version) (\($0.text))" } ?? version
        }
        return ""
    }

    /// `template` with its placeholders filled in from `status` (each value masked with `masker` first, then
    /// escaped for mrkdwn when `escape`).
    func render(_ template: String, _ status: RunStatus, escape: Bool, masker: SecretMasker? = nil) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let value = masker.map { $0.mask(self.value(name, status)) } ?? self.value(name, status)
            result += escape ? SlackMessage.escaped(value) : value
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    private func value(_ name: String, _ status: RunStatus) -> String {
        if let (step, key) = Self.stepOutput(name) { return status.outputs[step]?[key]?.text ?? "" }
        switch name {
        case "pipeline": return status.pipeline
        case "profile": return status.profile ?? ""
        case "branch": return status.branch ?? ""
        case "sha": return status.sha.map { String($0.prefix(7)) } ?? ""
        case "outcome": return Self.word(status.outcome)
        case "version": return options.version == nil ? version(status) : ""
        case "failed_steps": return status.failures.map(\.step).joined(separator: ", ")
        case "failed_step": return status.failures.first?.step ?? ""
        default: return ""
        }
    }

    /// The placeholder names in `template`.
    static func names(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            names.append(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        return names
    }

    /// `(ID, KEY)` of `steps.ID.outputs.KEY`.
    static func stepOutput(_ name: String) -> (String, String)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "steps", parts[2] == "outputs", !parts[1].isEmpty, !parts[3].isEmpty else { return nil }
        return (String(parts[1]), String(parts[3]))
    }
}
