import Foundation
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseExecution
@testable import ReleaseSentry
@testable import ReleaseSteps

/// `release rollout status`: what it prints for people and for programs.
@Suite struct RolloutStatusTests {
    static var entry: RolloutStatus.Entry {
        var entry = RolloutStatus.Entry(stepID: "rollout-guard")
        entry.bundleID = "com.example.demo"
        entry.version = "1.4.0"
        entry.phasedState = "PAUSED"
        entry.day = 3
        entry.health = RolloutHealth(
            sentry: SentryReleaseHealth(sessions: 1800, crashFreeSessions: 99.8, crashFreeUsers: nil), ratings: AppStoreRatings(count: 37, average: 4.6))
        entry.wouldDecide = RolloutDecision.Kind.none
        entry.reason = "healthy for 1 of the 2 checks in a row (recover_after) before resuming"
        entry.tag = "v1.4.0-42"
        entry.last = RolloutGuardState.Check(
            at: "2026-12-06T07:17:00Z", decision: .pause, reason: "crash-free sessions 98.70% is 0.80 points below the minimum 99.50%",
            phasedState: "ACTIVE", day: 3, acted: true, health: RolloutHealth())
        entry.pausedByGuard = true
        return entry
    }

    @Test func theTextSaysThePhaseTheNumbersAndTheLastDecision() {
        #expect(
            RolloutStatus(entries: [Self.entry]).text == """
                rollout guard 'rollout-guard' (com.example.demo 1.4.0)
                  phased release: PAUSED, day 3 of 7 (5% of users)
                  health: crash-free sessions 99.80% · crash-free users no data · 1800 sessions · rating 4.60 of 37 reviews
                  would decide now: none: healthy for 1 of the 2 checks in a row (recover_after) before resuming
                  last decision (2026-12-06T07:17:00Z): pause: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%
                  the guard paused it; 0 healthy check(s) in a row since

                """)
        #expect(RolloutStatus(entries: []).text == "the pipeline has no appstore.rollout step with 'action: guard'\n")
    }

    @Test func theJSONHasOneKeyPerConcept() throws {
        let object = RolloutStatus(entries: [Self.entry]).json
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""phased_state":"PAUSED""#))
        #expect(text.contains(#""sentry":{"crash_free_sessions":99.8,"crash_free_users":null,"sessions":1800}"#))
        #expect(text.contains(#""ratings":{"average":4.6,"reviews":37}"#))
        #expect(text.contains(#""last_decision":{"acted":true,"at":"2026-12-06T07:17:00Z","day":3,"decision":"pause""#))
        #expect(text.contains(#""paused_by_guard":true"#))
    }
}
