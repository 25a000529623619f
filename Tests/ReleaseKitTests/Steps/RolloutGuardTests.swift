import Crypto
import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseSentry
@testable import ReleaseSteps

/// `appstore.rollout` with `action: guard` against the local App Store Connect, the local Sentry (a scripted series
/// of health numbers) and a git repository whose tag carries the guard's state note, pushed to a bare remote: every
/// decision, once, from fresh checkouts, and the failures a scheduled job meets.
@Suite struct RolloutGuardTests {
    static let bundleID = "com.example.demo"
    static let sentryToken = "sntrys-test-token-0123456789"

    /// The stand-ins and a repository with the release's tag, pushed to a bare remote.
    final class Setup: Sendable {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let fixture: AppStoreConnectTestFixture
        let sentry: LocalSentryServer
        let slack = RecordingServer()
        let repository: VersioningGitRepository
        let remote: String

        init(series: [SentryReleaseHealth], phase: String = "ACTIVE", day: Int = 3, reviews: [Int] = []) async throws {
            fixture = try AppStoreConnectTestFixture(pem: pem)
            fixture.server.addApp(bundleID: RolloutGuardTests.bundleID, name: "Demo")
            fixture.server.addBuild(bundleID: RolloutGuardTests.bundleID, version: "1.4.0", build: "42")
            fixture.server.setPhasedRelease(bundleID: RolloutGuardTests.bundleID, version: "1.4.0", build: "42", state: phase, day: day)
            if !reviews.isEmpty { fixture.server.addCustomerReviews(bundleID: RolloutGuardTests.bundleID, version: "1.4.0", ratings: reviews) }
            sentry = try LocalSentryServer(configuration: .init(token: RolloutGuardTests.sentryToken, series: series))
            try sentry.start()
            try slack.start()
            repository = try await VersioningGitRepository()
            remote = repository.path + "-remote.git"
            try await repository.git("init", "-q", "--bare", remote)
            try await repository.git("remote", "add", "origin", remote)
            try await repository.git("tag", "-a", "v1.4.0-42_2026-12-01T08-00-00Z", "-m", "1.4.0 (42)")
            try await repository.git("push", "-q", "origin", "main", "--tags")
        }

        deinit {
            sentry.stop()
            slack.stop()
            repository.remove()
            try? FileManager.default.removeItem(atPath: remote)
        }

        /// A fresh clone of the remote, as a scheduled job's runner checks out the repository (no tags, no notes).
        func freshCheckout() async throws -> VersioningGitRepository {
            let clone = try await VersioningGitRepository()
            try await clone.git("remote", "add", "origin", remote)
            try await clone.git("fetch", "-q", "--no-tags", "origin", "main")
            return clone
        }

        func step(_ change: (inout AppStoreRolloutStep.Options) -> Void = { _ in }) throws -> AppStoreRolloutStep {
            var options = AppStoreRolloutStep.Options()
            options.bundleID = RolloutGuardTests.bundleID
            options.version = "1.4.0"
            options.action = .guard
            options.appStoreConnect.keyID = AppStoreConnectTestFixture.keyID
            options.appStoreConnect.issuerID = AppStoreConnectTestFixture.issuer
            options.appStoreConnect.key = pem
            options.sentry = SentryOptions(organization: "acme", project: "ios", token: RolloutGuardTests.sentryToken)
            options.minCrashFreeSessions = 99.5
            options.minSessions = 500
            options.slack = "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX"
            change(&options)
            return try AppStoreRolloutStep(options: options)
        }

        func context(_ repository: VersioningGitRepository? = nil, dryRun: Bool = false, events: VersioningEventLog) -> StepContext {
            var environment = ProcessInfo.processInfo.environment
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            return StepContext(
                stepID: "guard", kind: AppStoreRolloutStep.kind, workingDirectory: (repository ?? self.repository).path, environment: environment,
                isDryRun: dryRun, isPreflight: dryRun, now: Date(timeIntervalSince1970: 1_796_000_000),
                temporaryDirectory: TestTemporary.root,
                endpoints: ServiceEndpoints(overrides: [.appstore: fixture.url, .sentry: sentry.url, .slack: slack.url]),
                sink: { events.append($0) })
        }

        /// Runs one check and returns its outputs and the lines it logged.
        func check(
            _ repository: VersioningGitRepository? = nil, _ change: (inout AppStoreRolloutStep.Options) -> Void = { _ in }
        ) async throws -> (outputs: StepOutputs, log: [String], warnings: [String]) {
            let events = VersioningEventLog()
            let outputs = try await step(change).run(in: context(repository, events: events))
            return (outputs, Self.lines(events), Self.warnings(events))
        }

        var phase: String { fixture.server.phasedRelease(bundleID: RolloutGuardTests.bundleID, version: "1.4.0")?.state ?? "" }

        /// The note on the tag in the bare remote: what the next runner will find.
        func remoteNote() async throws -> RolloutGuardState? {
            let clone = try await freshCheckout()
            defer { clone.remove() }
            guard (try? await clone.git("fetch", "-q", "origin", "refs/notes/release-rollout:refs/notes/release-rollout", "refs/tags/*:refs/tags/*")) != nil
            else { return nil }
            let text = try await clone.git("notes", "--ref", "release-rollout", "show", "v1.4.0-42_2026-12-01T08-00-00Z^{commit}")
            return try RolloutGuardState.parse(Data(text.utf8), note: "remote note")
        }

        static func lines(_ events: VersioningEventLog) -> [String] {
            events.events.compactMap { if case .log(let line, _) = $0 { return line } else { return nil } }
        }

        static func warnings(_ events: VersioningEventLog) -> [String] {
            events.events.compactMap { if case .warning(let line) = $0 { return line } else { return nil } }
        }

        /// `PATCH`es sent to App Store Connect: the guard's actions.
        var patches: [String] {
            fixture.server.exchanges().filter { $0.method == "PATCH" }.compactMap { String(data: $0.requestBody ?? Data(), encoding: .utf8) }
        }
    }

    static func point(_ sessions: Int, _ rate: Double) -> SentryReleaseHealth {
        SentryReleaseHealth(sessions: sessions, crashFreeSessions: rate, crashFreeUsers: 99.9)
    }

    static func decision(_ outputs: StepOutputs) -> String {
        if case .string(let text)? = outputs.values["decision"] { return text }
        return ""
    }

    static func reason(_ outputs: StepOutputs) -> String {
        if case .string(let text)? = outputs.values["reason"] { return text }
        return ""
    }

    @Test func tooFewSessionsWaitsAndChangesNothing() async throws {
        let setup = try await Setup(series: [Self.point(40, 90)])
        let result = try await setup.check()
        #expect(Self.decision(result.outputs) == "wait")
        #expect(Self.reason(result.outputs) == "nothing judged yet: too few sessions: 40 of the 500 min_sessions")
        #expect(setup.phase == "ACTIVE" && setup.patches.isEmpty)
        #expect(result.log.contains("decision: wait: nothing judged yet: too few sessions: 40 of the 500 min_sessions"))
        // The release name Sentry's SDK reports, asked exactly as the contract's example.
        #expect(setup.sentry.releases == ["com.example.demo@1.4.0+42"])
        let target = try #require(setup.sentry.requests.first?.target)
        #expect(
            target.hasPrefix(
                "/api/0/organizations/acme/sessions/?field=crash_free_rate(session)&field=crash_free_rate(user)&field=sum(session)&project=ios&query=release:%22com.example.demo@1.4.0%2B42%22&statsPeriod=24h&interval=1h"
            ))
        #expect(try await setup.remoteNote()?.last?.decision == .wait)
        #expect(setup.slack.requests.isEmpty)
    }

    @Test func anUnhealthyBuildIsPausedOnceEvenWhenTheRunRepeats() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7)])
        let first = try await setup.check()
        #expect(Self.decision(first.outputs) == "pause")
        #expect(Self.reason(first.outputs) == "crash-free sessions 98.70% is 0.80 points below the minimum 99.50%")
        #expect(first.outputs.values["changed"] == .bool(true))
        #expect(setup.phase == "PAUSED")
        #expect(setup.patches.count == 1 && setup.patches[0].contains("\"phasedReleaseState\":\"PAUSED\""))
        #expect(setup.slack.requests.count == 1)
        let message = String(decoding: setup.slack.requests[0].body ?? [], as: UTF8.self)
        #expect(message.contains("com.example.demo 1.4.0: phased release paused"))
        #expect(message.contains("crash-free sessions 98.70% is 0.80 points below the minimum 99.50%"))

        // The same run again, here and on a fresh runner: no second pause, no second message.
        let again = try await setup.check()
        #expect(Self.decision(again.outputs) == "none")
        #expect(Self.reason(again.outputs).hasPrefix("still unhealthy, the phased release stays paused"))
        let fresh = try await setup.freshCheckout()
        defer { fresh.remove() }
        let elsewhere = try await setup.check(fresh)
        #expect(Self.decision(elsewhere.outputs) == "none")
        #expect(setup.patches.count == 1 && setup.slack.requests.count == 1)
        let note = try #require(try await setup.remoteNote())
        #expect(note.checks.map(\.decision) == [.pause, .none, .none])
        #expect(note.pausedByGuard)
        #expect(note.checks[0].health.sentry == SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: 99.9))
    }

    @Test func aBuildThatRecoversIsResumedAfterRecoverAfterHealthyChecksOnFreshRunners() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7), Self.point(2000, 99.8), Self.point(2400, 99.9)])
        #expect(Self.decision(try await setup.check().outputs) == "pause")
        var decisions: [String] = []
        for _ in 0..<2 {
            // Each check on a new checkout: only the pushed note says the guard paused it.
            let fresh = try await setup.freshCheckout()
            defer { fresh.remove() }
            decisions.append(Self.decision(try await setup.check(fresh).outputs))
        }
        #expect(decisions == ["none", "resume"])
        #expect(setup.phase == "ACTIVE")
        #expect(setup.slack.requests.count == 2)
        let note = try #require(try await setup.remoteNote())
        #expect(!note.pausedByGuard && note.consecutiveHealthy == 0)
        #expect(note.last?.reason.hasPrefix("healthy for 2 checks in a row (recover_after): crash-free sessions 99.90% ≥ 99.50%") == true)
    }

    @Test func ratingsUnderTheThresholdPause() async throws {
        let setup = try await Setup(series: [], reviews: [1, 2, 2, 3, 5, 1])
        let result = try await setup.check {
            $0.sentry = nil
            $0.minCrashFreeSessions = nil
            $0.minRating = 4
            $0.minReviews = 5
        }
        #expect(Self.decision(result.outputs) == "pause")
        #expect(Self.reason(result.outputs) == "rating (6 reviews) 2.33 is 1.67 below the minimum 4.00")
        #expect(setup.phase == "PAUSED")
        #expect(setup.sentry.requests.isEmpty)
        let reviews = try #require(setup.fixture.server.exchanges().first { $0.operationID == "appStoreVersions_customerReviews_getToManyRelated" })
        #expect(reviews.target.contains("fields%5BcustomerReviews%5D=rating,createdDate&sort=-createdDate&limit=200"))
    }

    /// The reviews request and the stand-in's answer follow Apple's extended contract (4.4.1), as does every other
    /// exchange of a check.
    @Test(.needsShared(.appStoreConnect)) func theReviewsExchangeFollowsApplesContract() async throws {
        let setup = try await Setup(series: [], reviews: [5, 4, 4, 5, 3])
        _ = try await setup.check {
            $0.sentry = nil
            $0.minCrashFreeSessions = nil
            $0.minRating = 4
            $0.minReviews = 5
        }
        let extended = try #require(AppStoreConnectContract.shared)
        let reviews = try #require(setup.fixture.server.exchanges().first { $0.operationID == "appStoreVersions_customerReviews_getToManyRelated" })
        #expect(reviews.status == 200)
        let operation = "appStoreVersions_customerReviews_getToManyRelated"
        #expect(extended.validate(operationId: operation, status: reviews.status, responseBody: reviews.responseBody).isEmpty)
        #expect(extended.validateQuery(operationId: operation, target: reviews.target).isEmpty)
        for exchange in setup.fixture.server.exchanges() where exchange.operationID != nil {
            let id = exchange.operationID ?? ""
            #expect(extended.validate(operationId: id, status: exchange.status, responseBody: exchange.responseBody).isEmpty, "\(id)")
        }
    }

    @Test func tooFewReviewsWait() async throws {
        let setup = try await Setup(series: [], reviews: [1, 1])
        let result = try await setup.check {
            $0.sentry = nil
            $0.minCrashFreeSessions = nil
            $0.minRating = 4
        }
        #expect(Self.decision(result.outputs) == "wait")
        #expect(Self.reason(result.outputs) == "nothing judged yet: too few reviews: 2 of the 10 min_reviews")
    }

    @Test func aHealthyBuildOnDaySevenIsCompleted() async throws {
        let setup = try await Setup(series: [Self.point(9000, 99.9)], day: 7)
        let result = try await setup.check()
        #expect(Self.decision(result.outputs) == "complete")
        #expect(setup.phase == "COMPLETE")
        #expect(Self.reason(result.outputs).hasPrefix("healthy at the end of the phased release (day 7 of 7): crash-free sessions 99.90% ≥ 99.50%"))
        // Done: the next check has nothing to watch and changes nothing.
        let next = try await setup.check()
        #expect(Self.decision(next.outputs) == "none" && Self.reason(next.outputs) == "the phased release is COMPLETE: nothing to watch")
        #expect(setup.patches.count == 1)
        // What `release rollout status` reads afterwards: the completion the note recorded, on the release's tag.
        let status = try await setup.step().check(in: setup.context(dryRun: true, events: VersioningEventLog()), act: false)
        #expect(status.previous?.last?.decision == .complete)
        #expect(status.tag == "v1.4.0-42_2026-12-01T08-00-00Z")
    }

    @Test func aSourceThatCannotBeReachedWarnsAndDecidesNothingUnlessRequired() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7)])
        setup.sentry.setUnavailable(true)
        let result = try await setup.check()
        #expect(Self.decision(result.outputs) == "none")
        #expect(Self.reason(result.outputs) == "no decision: Sentry cannot be reached")
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.hasPrefix("Sentry cannot be reached: HTTP 503 from http://127.0.0.1:") == true)
        #expect(result.warnings.first?.hasSuffix("; no decision this time (set 'required: true' to fail instead)") == true)
        #expect(setup.phase == "ACTIVE" && setup.patches.isEmpty)

        await #expect(throws: StepError.self) {
            _ = try await setup.check { $0.required = true }
        }
        do {
            _ = try await setup.check { $0.required = true }
        } catch {
            #expect("\(error)".contains("(the guard is 'required')"))
        }
        #expect(setup.phase == "ACTIVE")
    }

    @Test func aRefusedTokenIsAnErrorNamingTheSetting() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7)])
        await #expect(
            throws: StepError.invalidOption(
                "sentry.token", "Sentry refused the token (HTTP 401): 'Invalid token'; the sessions endpoint needs a token with the org:read scope")
        ) {
            _ = try await setup.check { $0.sentry?.token = "sntrys-wrong-token-000000000" }
        }
        #expect(setup.phase == "ACTIVE" && setup.patches.isEmpty)
    }

    @Test func aDryRunSaysWhatTheGuardWouldDecideAndChangesNothing() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7)])
        let events = VersioningEventLog()
        let plan = try await setup.step().plan(in: setup.context(dryRun: true, events: events))
        #expect(plan.outputs.values["decision"] == .string("pause"))
        let effect = "\(plan.effects)"
        #expect(effect.contains("would decide pause: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%"))
        #expect(Setup.lines(events).contains("decision (dry run: nothing changed): pause: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%"))
        #expect(setup.phase == "ACTIVE" && setup.patches.isEmpty && setup.slack.requests.isEmpty)
        #expect(try await setup.remoteNote() == nil)
    }

    @Test func aNoteThatIsNotTheGuardsStopsTheGuardBeforeItActs() async throws {
        let setup = try await Setup(series: [Self.point(1500, 98.7)])
        try await setup.repository.git("notes", "--ref", "release-rollout", "add", "-m", "$(touch /tmp/pwned) not json", "v1.4.0-42_2026-12-01T08-00-00Z^{commit}")
        try await setup.repository.git("push", "-q", "origin", "refs/notes/release-rollout")
        await #expect(throws: StepError.self) { _ = try await setup.check() }
        do {
            _ = try await setup.check()
        } catch {
            #expect("\(error)".contains("git note refs/notes/release-rollout on tag 'v1.4.0-42_2026-12-01T08-00-00Z' is not the guard's state: not JSON"))
        }
        #expect(setup.phase == "ACTIVE" && setup.patches.isEmpty)
    }

    @Test func guardOptionsAreChecked() throws {
        var options = AppStoreRolloutStep.Options()
        options.bundleID = Self.bundleID
        options.version = "1.4.0"
        options.action = .pause
        options.appStoreConnect.keyID = AppStoreConnectTestFixture.keyID
        options.appStoreConnect.issuerID = AppStoreConnectTestFixture.issuer
        options.appStoreConnect.key = "${secrets.APP_STORE_CONNECT_KEY}"
        options.minRating = 4
        #expect(throws: StepError.invalidOption("min_rating", "only 'action: guard' reads it; this step's action is 'pause'")) {
            try AppStoreRolloutStep(options: options)
        }
        options.action = .guard
        options.minRating = nil
        #expect(
            throws: StepError.invalidOption(
                "action", "guard needs a health source: 'sentry' (with min_crash_free_sessions or min_crash_free_users), or 'min_rating'")
        ) {
            try AppStoreRolloutStep(options: options)
        }
        options.sentry = SentryOptions(organization: "acme", project: "ios", token: "${secrets.SENTRY_TOKEN}")
        #expect(throws: StepError.invalidOption("sentry", "Sentry is read but nothing is judged: set min_crash_free_sessions or min_crash_free_users")) {
            try AppStoreRolloutStep(options: options)
        }
        options.minCrashFreeUsers = 99
        options.sentry?.url = "ftp://sentry.example"
        #expect(throws: StepError.invalidOption("sentry.url", "'ftp://sentry.example' is not an http(s) URL without credentials")) {
            try AppStoreRolloutStep(options: options)
        }
        options.sentry?.url = "https://de.sentry.io"
        _ = try AppStoreRolloutStep(options: options)
    }
}
