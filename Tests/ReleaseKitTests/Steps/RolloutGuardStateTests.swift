import Foundation
import Testing

@testable import ReleaseSentry
@testable import ReleaseSteps

/// The guard's state note: written and read back, bounded, and refused with the note named when it is not the guard's.
@Suite struct RolloutGuardStateTests {
    static let note = "git note refs/notes/release-rollout on tag 'v1.4.0'"

    static func check(_ number: Int) -> RolloutGuardState.Check {
        RolloutGuardState.Check(
            at: "2026-12-06T0\(number % 10):00:00Z", decision: .pause, reason: "crash-free sessions 98.70% is 0.80 points below the minimum 99.50%",
            phasedState: "ACTIVE", day: 3, acted: true,
            health: RolloutHealth(sentry: SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: nil)))
    }

    @Test func aStateRoundTripsAndKeepsOnlyTheNewestChecks() throws {
        var state = RolloutGuardState()
        state.pausedByGuard = true
        state.consecutiveHealthy = 1
        for number in 0..<30 { state.record(Self.check(number)) }
        #expect(state.checks.count == RolloutGuardState.maxChecks)
        #expect(state.checks.first == Self.check(6))
        let text = try state.encoded()
        #expect(text.contains("\"paused_by_guard\" : true"))
        #expect(text.contains("\"crash_free_users\" : null") || !text.contains("crash_free_users"))
        let read = try RolloutGuardState.parse(Data(text.utf8), note: Self.note)
        #expect(read == state)
        #expect(Data(text.utf8).count < RolloutGuardState.maxBytes)
    }

    @Test func aLongReasonIsCutWhenRecorded() {
        var state = RolloutGuardState()
        var check = Self.check(1)
        check.reason = String(repeating: "x", count: 5000)
        state.record(check)
        #expect(state.last?.reason.count == 1000)
    }

    @Test(arguments: [
        ("not json", "git note refs/notes/release-rollout on tag 'v1.4.0' is not the guard's state: not JSON"),
        (#"{"checks": []}"#, "git note refs/notes/release-rollout on tag 'v1.4.0' is not the guard's state: $: missing 'format'"),
        (#"{"format": 2}"#, "git note refs/notes/release-rollout on tag 'v1.4.0' has format 2; this release reads format 1"),
        (
            #"{"format": 1, "consecutive_healthy": "$(rm -rf /)"}"#,
            "git note refs/notes/release-rollout on tag 'v1.4.0' is not the guard's state: $.consecutive_healthy: wrong type"
        ),
        (#"{"format": 1, "consecutive_healthy": -3}"#, "git note refs/notes/release-rollout on tag 'v1.4.0' holds numbers out of range"),
        (
            #"{"format": 1, "checks": [{"at": "x", "decision": "explode", "reason": "", "phased_state": "", "day": 1, "acted": false, "health": {}}]}"#,
            "git note refs/notes/release-rollout on tag 'v1.4.0' is not the guard's state: $.checks[0].decision: invalid value"
        ),
    ])
    func aNoteThatIsNotTheGuardsIsRefusedNamingIt(text: String, message: String) {
        let fix = "; remove it (git notes --ref release-rollout remove <tag>) and the guard starts afresh"
        #expect(throws: StepError.failed(message + fix)) {
            try RolloutGuardState.parse(Data(text.utf8), note: Self.note)
        }
    }

    @Test func aNoteOverTheLimitIsNotParsed() {
        let big = Data(("{\"format\": 1, \"pad\": \"" + String(repeating: "x", count: RolloutGuardState.maxBytes) + "\"}").utf8)
        #expect(throws: StepError.self) { try RolloutGuardState.parse(big, note: Self.note) }
    }
}
