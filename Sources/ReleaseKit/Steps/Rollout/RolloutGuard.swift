import Foundation
import ReleaseAppStoreConnect
import ReleaseHTTP
import ReleaseSentry
import ReleaseSupport

/// `appstore.rollout` with `action: guard`: one check of a phased release. It reads the phased release of the
/// version, the health sources the step names (Sentry, App Store ratings), decides (``RolloutDecision``) with what
/// earlier checks recorded in the git note (``RolloutGuardNote``), acts through ``AppStoreRollout``, records the
/// check in the note, and tells Slack when it acted.
package struct RolloutGuard: Sendable {
    /// What one check found and did.
    package struct Outcome: Sendable {
        package var decision: RolloutDecision.Kind
        package var reason: String
        package var health: RolloutHealth
        package var status: AppStoreRollout.Result
        var changed: Bool
        /// What earlier checks recorded (nil when it could not be read this time), and the tag carrying it.
        package var previous: RolloutGuardState?
        package var tag: String?
    }

    var options: AppStoreRolloutStep.Options
    var thresholds: RolloutThresholds
    var access: AppStoreConnectAccess

    /// Runs one check; in a dry run (`act` false) it decides with today's numbers and changes nothing.
    func check(in context: StepContext, act: Bool) async throws -> Outcome {
        let rollout = AppStoreRollout(session: try access.session(in: context))
        let client = rollout.client
        let status: AppStoreRollout.Result
        do {
            status = try await rollout.perform(.status, bundleID: options.bundleID, version: options.version, platform: options.platform.platform)
        } catch AppStoreConnectError.noVersion {
            // A scheduled guard between releases: the project's next version is not in App Store Connect yet.
            let reason = "version \(options.version) is not in App Store Connect: nothing to watch"
            context.log("decision: none: \(reason)")
            return Outcome(
                decision: .none, reason: reason, health: RolloutHealth(),
                status: AppStoreRollout.Result(versionID: "", state: "", phasedState: "", day: 0, changed: false), changed: false)
        } catch {
            return try unreachable("App Store Connect", error, status: nil, in: context)
        }
        // Nothing rolling out (not released yet, or complete): nothing to judge, and no state to keep.
        guard status.phasedState == "ACTIVE" || status.phasedState == "PAUSED" else {
            let decision = RolloutDecision.decide(
                phasedState: status.phasedState, day: status.day, health: RolloutHealth(), thresholds: thresholds, previous: RolloutGuardState())
            context.log("decision: \(decision.kind.rawValue): \(decision.reason)")
            var outcome = Outcome(decision: decision.kind, reason: decision.reason, health: RolloutHealth(), status: status, changed: false)
            if !act, let recorded = try? await recordedState(in: context) {
                // `release rollout status` after the rollout: what the guard last did (a completion) is still worth showing.
                outcome = outcome.with(recorded.state, recorded.note.tag)
            }
            return outcome
        }

        // State first: a note that cannot be read is an error before anything changes.
        let (note, previous) = try await recordedState(in: context)
        let tag = note.tag

        var health = RolloutHealth()
        if let sentry = options.sentry {
            do {
                health.sentry = try await sentryHealth(sentry, status: status, client: client, in: context)
            } catch let error as SentryError {
                if case .refused = error {
                    // The setting to fix, named as the pipeline spells it.
                    throw StepError.invalidOption("sentry.token", context.masker.mask(error.description))
                }
                if case .unreachable = error { return try unreachable("Sentry", error, status: status, in: context).with(previous, tag) }
                throw StepError.failed(context.masker.mask(error.description))
            }
        }
        if options.minRating != nil {
            do {
                health.ratings = try await AppStoreRatings.read(versionID: status.versionID, client: client)
            } catch {
                return try unreachable("App Store Connect (customer reviews)", error, status: status, in: context).with(previous, tag)
            }
        }
        context.log("health of \(options.bundleID) \(options.version): \(health.summary)")

        let decision = RolloutDecision.decide(
            phasedState: status.phasedState, day: status.day, health: health, thresholds: thresholds, previous: previous)
        var changed = false
        var after = status
        if act, let action = Self.action(decision.kind) {
            after = try await rollout.perform(action, bundleID: options.bundleID, version: options.version, platform: options.platform.platform)
            changed = after.changed
        }
        let verb = act ? "decision" : "decision (dry run: nothing changed)"
        context.log("\(verb): \(decision.kind.rawValue): \(decision.reason)")
        if act {
            var state = decision.state
            state.record(
                RolloutGuardState.Check(
                    at: Self.timestamp(context.now), decision: decision.kind, reason: decision.reason, phasedState: status.phasedState,
                    day: status.day, acted: changed, health: health))
            try await note.write(state, in: context)
            if changed, let slack = options.slack {
                try await notify(slack, decision: decision, health: health, in: context)
            }
        }
        return Outcome(
            decision: decision.kind, reason: decision.reason, health: health, status: after, changed: changed, previous: previous, tag: tag)
    }

    /// The note on the release's tag (fetched from the remote) and the state earlier checks left in it.
    func recordedState(in context: StepContext) async throws -> (note: RolloutGuardNote, state: RolloutGuardState) {
        let remote = try await RolloutGuardNote.remoteLocation(options.remote, directory: nil, in: context)
        let tag = try await RolloutGuardNote.findTag(options.tag, version: options.version, remote: remote, directory: nil, in: context)
        let note = RolloutGuardNote(tag: tag, remote: remote, directory: nil)
        try await note.fetch(in: context)
        return (note, try await note.read(in: context))
    }

    /// A source that cannot be reached: with `required`, the step fails; else a warning and no decision.
    func unreachable(_ source: String, _ error: any Error, status: AppStoreRollout.Result?, in context: StepContext) throws -> Outcome {
        let problem: String
        switch error {
        case let error as AppStoreConnectError:
            if case .unauthorized = error { throw StepError.invalidOption("key", error.description) }
            guard Self.isUnreachable(error) else { throw StepError.failed(error.description) }
            problem = error.description
        case let error as HTTPError: problem = error.description
        case SentryError.unreachable(let reason): problem = reason
        case let error as SentryError: problem = error.description
        default: throw error
        }
        let message = context.masker.mask("\(source) cannot be reached: \(problem)")
        if options.required { throw StepError.failed(message + " (the guard is 'required')") }
        context.warn(message + "; no decision this time (set 'required: true' to fail instead)")
        return Outcome(
            decision: .none, reason: "no decision: \(source) cannot be reached", health: RolloutHealth(),
            status: status ?? AppStoreRollout.Result(versionID: "", state: "", phasedState: "", day: 0, changed: false), changed: false)
    }

    /// Whether an App Store Connect failure means the service is not there (connection, 5xx), not a refusal.
    static func isUnreachable(_ error: AppStoreConnectError) -> Bool {
        if case .api(_, _, let status, _) = error { return status >= 500 }
        return false
    }

    /// The App Store Connect action a decision takes.
    static func action(_ kind: RolloutDecision.Kind) -> AppStoreRollout.Action? {
        switch kind {
        case .pause: return .pause
        case .resume: return .resume
        case .complete: return .complete
        case .wait, .none: return nil
        }
    }

    func sentryHealth(_ sentry: SentryOptions, status: AppStoreRollout.Result, client: AppStoreConnectClient, in context: StepContext) async throws
        -> SentryReleaseHealth
    {
        context.masker.add(sentry.token)
        let base = try context.baseURL(.sentry, configured: sentry.url ?? SentryClient.defaultURL)
        let sentryClient: SentryClient
        do {
            sentryClient = try SentryClient(
                baseURL: base, organization: sentry.organization, project: sentry.project, token: sentry.token, http: context.httpClient(for: .sentry))
        } catch let error as SentryError {
            throw StepError.invalidOption("sentry.url", error.description)
        }
        let release: String
        if let given = sentry.release {
            release = given
        } else {
            let build: String
            do {
                build = try await client.resource(BuildAttributes.self, "/v1/appStoreVersions/\(status.versionID)/build").attributes?.version ?? ""
            } catch AppStoreConnectError.api(_, _, 404, _) {
                throw StepError.invalidOption(
                    "sentry.release", "version \(options.version) has no build in App Store Connect, so the Sentry release name is unknown; set it")
            }
            release = SentryClient.releaseName(bundleID: options.bundleID, version: options.version, build: build)
        }
        context.log("reading Sentry release health of '\(release)' (last \(SentryClient.statsPeriod))")
        return try await sentryClient.health(release: release)
    }

    /// Posts the decision to the Slack webhook.
    func notify(_ webhook: String, decision: RolloutDecision, health: RolloutHealth, in context: StepContext) async throws {
        context.masker.add(webhook)
        let title = "\(options.bundleID) \(options.version): phased release \(Self.past(decision.kind))"
        let message = SlackMessage(
            text: context.masker.mask(title),
            blocks: [
                .header(context.masker.mask(title)),
                .section(SlackMessage.escaped(context.masker.mask(decision.reason))),
                .context([SlackMessage.escaped(context.masker.mask(health.summary))]),
            ])
        let url = try context.url(.slack, for: webhook)
        let request = HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "application/json; charset=utf-8")], body: .data(try message.json()))
        do {
            let response = try await context.httpClient(for: .slack).send(request)
            guard response.isSuccess else {
                context.warn("Slack refused the guard's message: HTTP \(response.status)")
                return
            }
            context.log("told Slack: \(title)")
        } catch let error as HTTPError {
            context.warn(context.masker.mask("the guard's Slack message was not sent: \(error.description)"))
        }
    }

    static func past(_ kind: RolloutDecision.Kind) -> String {
        switch kind {
        case .pause: return "paused"
        case .resume: return "resumed"
        case .complete: return "completed"
        case .wait, .none: return kind.rawValue
        }
    }

    /// `2026-12-06T07:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

extension RolloutGuard.Outcome {
    /// The outcome with the state read before it.
    func with(_ previous: RolloutGuardState, _ tag: String) -> Self {
        var outcome = self
        outcome.previous = previous
        outcome.tag = tag
        return outcome
    }
}
