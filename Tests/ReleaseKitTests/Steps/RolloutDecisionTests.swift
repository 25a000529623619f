import Foundation
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseSentry
@testable import ReleaseSteps

/// The rollout guard's decision, case by case: a pure function of the phase, the numbers, the thresholds and the
/// state earlier checks left.
@Suite struct RolloutDecisionTests {
    static let thresholds = RolloutThresholds(minCrashFreeSessions: 99.5, minCrashFreeUsers: 99.0, minSessions: 500, minRating: 4.0, minReviews: 10)

    static func sentry(_ sessions: Int, _ crashFreeSessions: Double?, _ crashFreeUsers: Double? = 99.9) -> SentryReleaseHealth {
        SentryReleaseHealth(sessions: sessions, crashFreeSessions: crashFreeSessions, crashFreeUsers: crashFreeUsers)
    }

    static func decide(
        _ phase: String = "ACTIVE", day: Int = 3, sentry: SentryReleaseHealth? = nil, ratings: AppStoreRatings? = nil,
        thresholds: RolloutThresholds = thresholds, previous: RolloutGuardState = RolloutGuardState()
    ) -> RolloutDecision {
        RolloutDecision.decide(
            phasedState: phase, day: day, health: RolloutHealth(sentry: sentry, ratings: ratings), thresholds: thresholds, previous: previous)
    }

    @Test func tooFewSessionsOrReviewsWaitsAndJudgesNothing() {
        let decision = Self.decide(sentry: Self.sentry(40, 90), ratings: AppStoreRatings(count: 3, average: 1))
        #expect(decision.kind == .wait)
        #expect(decision.reason == "nothing judged yet: too few sessions: 40 of the 500 min_sessions; too few reviews: 3 of the 10 min_reviews")
        #expect(decision.state == RolloutGuardState())
    }

    @Test func aRateUnderItsThresholdPausesNamingTheNumberAndByHowMuch() {
        let decision = Self.decide(sentry: Self.sentry(1500, 98.7))
        #expect(decision.kind == .pause)
        #expect(decision.reason == "crash-free sessions 98.70% is 0.80 points below the minimum 99.50%")
        #expect(decision.state.pausedByGuard && decision.state.consecutiveHealthy == 0)
    }

    @Test func whenAlreadyPausedAnUnhealthyCheckDoesNotPauseAgain() {
        var previous = RolloutGuardState()
        previous.pausedByGuard = true
        let decision = Self.decide("PAUSED", sentry: Self.sentry(1500, 98.7, 98.0), previous: previous)
        #expect(decision.kind == .none)
        #expect(
            decision.reason
                == "still unhealthy, the phased release stays paused: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%; crash-free users 98.00% is 1.00 points below the minimum 99.00%"
        )
    }

    @Test func itResumesItsOwnPauseAfterRecoverAfterHealthyChecksInARow() {
        var state = RolloutGuardState()
        state.pausedByGuard = true
        let first = Self.decide("PAUSED", sentry: Self.sentry(2000, 99.8), previous: state)
        #expect(first.kind == .none)
        #expect(first.reason.hasPrefix("healthy for 1 of the 2 checks in a row (recover_after) before resuming: crash-free sessions 99.80% ≥ 99.50%"))
        let second = Self.decide("PAUSED", sentry: Self.sentry(2000, 99.8), previous: first.state)
        #expect(second.kind == .resume)
        #expect(second.reason.hasPrefix("healthy for 2 checks in a row (recover_after): "))
        #expect(!second.state.pausedByGuard && second.state.consecutiveHealthy == 0)
        // An unhealthy check in between starts the count again.
        let relapse = Self.decide("PAUSED", sentry: Self.sentry(2000, 99.0), previous: first.state)
        #expect(relapse.kind == .none && relapse.state.consecutiveHealthy == 0 && relapse.state.pausedByGuard)
    }

    @Test func aPauseSomeoneElseMadeIsNeverResumed() {
        var state = RolloutGuardState()
        state.consecutiveHealthy = 5
        let decision = Self.decide("PAUSED", sentry: Self.sentry(2000, 99.9), previous: state)
        #expect(decision.kind == .none)
        #expect(decision.reason.hasPrefix("healthy, but the phased release was paused by someone else"))
    }

    @Test func ratingsUnderTheThresholdPause() {
        let decision = Self.decide(ratings: AppStoreRatings(count: 12, average: 2.5))
        #expect(decision.kind == .pause)
        #expect(decision.reason == "rating (12 reviews) 2.50 is 1.50 below the minimum 4.00")
    }

    @Test func healthyOnDaySevenOrPastCompleteAtCompletes() {
        let seventh = Self.decide(day: 7, sentry: Self.sentry(9000, 99.9))
        #expect(seventh.kind == .complete)
        #expect(seventh.reason.hasPrefix("healthy at the end of the phased release (day 7 of 7): "))
        var thresholds = Self.thresholds
        thresholds.completeAt = 20
        let early = Self.decide(day: 5, sentry: Self.sentry(9000, 99.9), thresholds: thresholds)
        #expect(early.kind == .complete)
        #expect(early.reason.hasPrefix("healthy at 20% of users (day 5 of 7), complete_at 20%: "))
        let notYet = Self.decide(day: 4, sentry: Self.sentry(9000, 99.9), thresholds: thresholds)
        #expect(notYet.kind == .none)
        #expect(notYet.reason.hasPrefix("healthy, rolling out (day 4 of 7, 10% of users): "))
        // Unhealthy on day 7: pause, not complete.
        #expect(Self.decide(day: 7, sentry: Self.sentry(9000, 90)).kind == .pause)
    }

    @Test func withoutAPhasedReleaseInProgressThereIsNothingToWatch() {
        for phase in ["", "INACTIVE", "COMPLETE"] {
            let decision = Self.decide(phase, sentry: Self.sentry(1500, 50))
            #expect(decision.kind == .none, "\(phase)")
        }
        #expect(Self.decide("COMPLETE").reason == "the phased release is COMPLETE: nothing to watch")
    }

    @Test func aNullRateIsNotJudgedAndOneJudgedSourceIsEnough() {
        // Enough sessions but Sentry answered null for users: sessions are judged, users are not.
        let decision = Self.decide(sentry: Self.sentry(800, 99.9, nil), ratings: AppStoreRatings(count: 2, average: 5))
        #expect(decision.kind == .none)
        #expect(decision.reason.contains("crash-free sessions 99.90% ≥ 99.50%"))
    }

    @Test func apple_sPhasedScheduleGivesThePercentOfEachDay() {
        #expect((0...8).map { RolloutThresholds.percent(onDay: $0) } == [0, 1, 2, 5, 10, 20, 50, 100, 100])
    }

    @Test func sentrysFractionsBecomePercentsAndNothingElseDoes() {
        #expect(SentryReleaseHealth.percent(fromFraction: 0.9942) == 99.42)
        #expect(SentryReleaseHealth.percent(fromFraction: nil) == nil)
        // 99.42 is release details' percent, not a fraction: not taken for 9,942 %.
        #expect(SentryReleaseHealth.percent(fromFraction: 99.42) == nil)
        #expect(SentryReleaseHealth.percent(fromFraction: .nan) == nil)
    }
}
