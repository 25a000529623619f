import Foundation
import ReleaseAppStoreConnect
import ReleaseHTTP
import ReleaseSupport

/// `appstore.rollout`: controls what happens after App Review approves a version. `release` releases a version
/// waiting for the developer (a release request); `pause`, `resume` and `complete` drive its phased release; `status`
/// (read-only, also in dry runs) prints the version's state and the phased release's day. Each converges: asking for
/// the state the version is already in changes nothing. See ``AppStoreRollout``. `guard` watches a phased release:
/// it reads the build's health (Sentry, App Store ratings) and pauses, resumes or completes it (``RolloutGuard``,
/// ``RolloutDecision``), meant for a scheduled job (`release export` gives it one).
package struct AppStoreRolloutStep: Step {
    package struct Options: StepOptions {
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the app's bundle id, e.g. com.example.app")
        package var bundleID: String
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the App Store version string, e.g. ${steps.bump.outputs.version}")
        package var version: String
        @StepOption(
            help:
                "release (a version waiting for the developer), pause, resume or complete (its phased release), status, or guard (watch the phased release's health and pause, resume or complete it)"
        )
        package var action: Action
        @StepOption(help: "App Store Connect's platform: \(ApplePlatform.AppStoreConnectSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling> = .init(.iOS)
        @StepOption(
            help:
                "release: how long to wait while App Review still has the version: approved (the default budget: 5m in CI, until done elsewhere), a duration (30s, 5m, 2h, 1d) or until-done. A budget that runs out ends the step waiting, not failed: the run exits 0 and running it again continues"
        )
        package var wait: WaitBudget = .state("approved")
        @StepOptionGroup
        package var waiting: AppStoreConnectPollingOptions
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions
        @StepOption(
            help:
                "guard: Sentry release health, {url (default https://sentry.io), organization, project, token (org:read, e.g. ${secrets.SENTRY_TOKEN}), release (default BUNDLE@VERSION+BUILD)}; absent: Sentry is not read"
        )
        package var sentry: SentryOptions?
        @StepOption(range: 0...100, help: "guard: the lowest crash-free sessions rate, in percent (e.g. 99.5); absent: not judged")
        package var minCrashFreeSessions: Double?
        @StepOption(range: 0...100, help: "guard: the lowest crash-free users rate, in percent; absent: not judged")
        package var minCrashFreeUsers: Double?
        @StepOption(range: 0...1_000_000_000, help: "guard: below this many sessions (last 24 hours) Sentry's rates are not judged yet (decision wait)")
        package var minSessions: Int = 100
        @StepOption(range: 1...5, help: "guard: the lowest mean star rating of the version's customer reviews; absent: reviews are not read")
        package var minRating: Double?
        @StepOption(range: 0...1_000_000, help: "guard: below this many reviews the rating is not judged yet")
        package var minReviews: Int = 10
        @StepOption(range: 1...1000, help: "guard: healthy checks in a row before a phased release the guard paused is resumed")
        package var recoverAfter: Int = 2
        @StepOption(range: 1...100, help: "guard: complete the phased release once it reaches this percent of users and is healthy; absent: at the end of day 7")
        package var completeAt: Double?
        @StepOption(help: "guard: whether a health source that cannot be reached fails the step (else a warning and no decision)")
        package var required: Bool = false
        @StepOption(help: "guard: the release's tag, which carries the guard's state as a git note; absent: the newest tag v<version> or v<version>-…")
        package var tag: String?
        @StepOption(help: "guard: the git remote the tag and the state note are fetched from and pushed to")
        package var remote: String = "origin"
        @StepOption(help: "guard: when `release export` runs the guard's own job, as cron (UTC, five fields); default hourly")
        package var schedule: String = "17 * * * *"
        @StepOption(help: "guard: a Slack incoming webhook told when the guard pauses, resumes or completes (e.g. ${secrets.SLACK_WEBHOOK_URL})")
        package var slack: String?

        package init() {}
    }

    /// `action`.
    package enum Action: String, OptionChoice, Sendable {
        case release, pause, resume, complete, status
        case `guard`
    }

    package static let kind = "appstore.rollout"
    package static let exportTraits = ExportTraits(waitsOnApple: true)
    package static let summary =
        "After approval: release a version waiting for the developer, pause, resume or complete its phased release, print its status, or guard it by the build's health; each converges"
    package static let outputs: [StepDocumentation.Output] = [
        .init("version_id", "string", "the appStoreVersions resource's id"),
        .init("state", "string", "the version's App Store state after the action, e.g. READY_FOR_SALE"),
        .init("phased_state", "string", "the phased release's state (INACTIVE, ACTIVE, PAUSED, COMPLETE); empty without one"),
        .init("day", "number", "the phased release's day (1 to 7); 0 before it starts"),
        .init("changed", "bool", "whether this run changed anything"),
        .init("decision", "string", "guard: wait, pause, resume, complete or none (other actions: none)"),
        .init("reason", "string", "guard: why, naming the number and by how much it misses its threshold"),
        .init("health", "string", "guard: the numbers behind the decision, one line"),
    ]
    package static let example = """
        {"id": "rollout", "uses": "appstore.rollout",
         "with": {"bundle_id": "com.example.app", "version": "${version}", "action": "pause",
                  \(AppStoreConnectOptions.example)}}
        """

    package let options: Options
    let access: AppStoreConnectAccess

    package init(options: Options) throws {
        try options.validate()
        try options.wait.check(states: ["approved"])
        access = AppStoreConnectAccess(options.appStoreConnect)
        if options.action != .guard {
            let guardOnly: [(String, Bool)] = [
                ("sentry", options.sentry != nil), ("min_crash_free_sessions", options.minCrashFreeSessions != nil),
                ("min_crash_free_users", options.minCrashFreeUsers != nil), ("min_rating", options.minRating != nil),
                ("complete_at", options.completeAt != nil), ("tag", options.tag != nil), ("slack", options.slack != nil),
            ]
            if let (name, _) = guardOnly.first(where: \.1) {
                throw StepError.invalidOption(name, "only 'action: guard' reads it; this step's action is '\(options.action.rawValue)'")
            }
        } else {
            guard options.sentry != nil || options.minRating != nil else {
                throw StepError.invalidOption("action", "guard needs a health source: 'sentry' (with min_crash_free_sessions or min_crash_free_users), or 'min_rating'")
            }
            if let sentry = options.sentry {
                try StepError.requireNonBlank(["sentry.organization": sentry.organization, "sentry.project": sentry.project, "sentry.token": sentry.token])
                guard options.minCrashFreeSessions != nil || options.minCrashFreeUsers != nil else {
                    throw StepError.invalidOption("sentry", "Sentry is read but nothing is judged: set min_crash_free_sessions or min_crash_free_users")
                }
                if let url = sentry.url, !url.contains("${") {
                    guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""),
                        components.hostWithoutIDNA?.isEmpty == false, components.user == nil, components.password == nil
                    else {
                        throw StepError.invalidOption("sentry.url", "'\(HTTPRequest.redact(url))' is not an http(s) URL without credentials")
                    }
                }
            }
        }
        guard Self.isCron(options.schedule) || options.schedule.contains("${") else {
            throw StepError.invalidOption("schedule", "'\(Echo.text(options.schedule))' is not a cron schedule of five fields (e.g. '17 * * * *', hourly)")
        }
        self.options = options
    }

    /// Whether `text` is a five-field cron expression of digits, `*`, `/`, `,` and `-` (what both CI engines take,
    /// and nothing that could escape a YAML scalar).
    package static func isCron(_ text: String) -> Bool {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count == 5 && fields.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isNumber || "*/,-".contains($0)) } }
    }

    package var isReadOnly: Bool { options.action == .status }

    /// The guard's thresholds.
    var thresholds: RolloutThresholds {
        RolloutThresholds(
            minCrashFreeSessions: options.minCrashFreeSessions, minCrashFreeUsers: options.minCrashFreeUsers, minSessions: options.minSessions,
            minRating: options.minRating, minReviews: options.minReviews, recoverAfter: options.recoverAfter, completeAt: options.completeAt)
    }

    /// One check of the guard; `act` false decides without changing anything (a dry run, `release rollout status`).
    package func check(in context: StepContext, act: Bool) async throws -> RolloutGuard.Outcome {
        do {
            return try await RolloutGuard(options: options, thresholds: thresholds, access: access).check(in: context, act: act)
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }

    package func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        let what = "\(options.bundleID) \(options.version)"
        let effect: PlannedEffect
        if options.action == .guard {
            // A dry run says what the guard would decide with today's numbers: the reads are real, nothing changes.
            // Secrets a dry run filled with placeholders would only be refused: nothing is asked then.
            let placeholder = [options.appStoreConnect.key, options.sentry?.token ?? ""].contains(where: context.placeholderValues.contains)
            var outcome: RolloutGuard.Outcome?
            if context.isDryRun && !placeholder { outcome = try await check(in: context, act: false) }
            let detail =
                outcome.map { "guard of \(what) would decide \($0.decision.rawValue): \($0.reason)" }
                ?? "guard \(what): read its health, then pause, resume or complete its phased release"
            return StepPlan(
                effects: [.request(method: "PATCH", url: api + "/v1/appStoreVersionPhasedReleases/{id}", detail: detail)],
                outputs: guardOutputs(outcome))
        }
        switch options.action {
        case .status, .guard: effect = .request(method: "GET", url: api + "/v1/appStoreVersions/{id}/appStoreVersionPhasedRelease", detail: "read the state of \(what)")
        case .release: effect = .request(method: "POST", url: api + "/v1/appStoreVersionReleaseRequests", detail: "release \(what) unless released")
        case .pause, .resume, .complete:
            let target = options.action == .pause ? "PAUSED" : options.action == .resume ? "ACTIVE" : "COMPLETE"
            effect = .request(method: "PATCH", url: api + "/v1/appStoreVersionPhasedReleases/{id}", detail: "set the phased release of \(what) to \(target) unless it is")
        }
        return StepPlan(
            effects: [effect],
            outputs: StepOutputs([
                "version_id": .string(""), "state": .string(""), "phased_state": .string(""), "day": .number(0), "changed": .bool(false),
                "decision": .string("none"), "reason": .string(""), "health": .string(""),
            ]))
    }

    /// The outputs of a guard's check (nil: promised values for a plan).
    func guardOutputs(_ outcome: RolloutGuard.Outcome?) -> StepOutputs {
        StepOutputs([
            "version_id": .string(outcome?.status.versionID ?? ""), "state": .string(outcome?.status.state ?? ""),
            "phased_state": .string(outcome?.status.phasedState ?? ""), "day": .number(Double(outcome?.status.day ?? 0)),
            "changed": .bool(outcome?.changed ?? false), "decision": .string(outcome?.decision.rawValue ?? "none"),
            "reason": .string(outcome?.reason ?? ""), "health": .string(outcome?.health.summary ?? ""),
        ])
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        if options.action == .guard { return guardOutputs(try await check(in: context, act: true)) }
        let rollout = AppStoreRollout(session: try access.session(in: context))
        do {
            let action = AppStoreRollout.Action(rawValue: options.action.rawValue) ?? .status
            let wait = AppStoreRollout.ReviewWait(
                interval: options.waiting.polling.interval, timeout: options.waiting.polling.timeout,
                budget: options.wait.seconds(in: context.environment))
            let result = try await rollout.perform(
                action, bundleID: options.bundleID, version: options.version, platform: options.platform.platform, reviewWait: wait)
            return StepOutputs([
                "version_id": .string(result.versionID), "state": .string(result.state), "phased_state": .string(result.phasedState),
                "day": .number(Double(result.day)), "changed": .bool(result.changed),
                "decision": .string("none"), "reason": .string(""), "health": .string(""),
            ])
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }
}
