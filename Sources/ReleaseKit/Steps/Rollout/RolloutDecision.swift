import ReleaseAppStoreConnect
import ReleaseSentry
import ReleaseSupport

/// What a rollout guard does on one check, and why: a pure function of the phased release's state, the health
/// numbers, the thresholds and what earlier checks recorded (``RolloutGuardState``), so every case is a unit test.
///
/// - `wait`: no source has enough data to judge (too few sessions, too few reviews);
/// - `pause`: a judged number is below its threshold while the phased release is active: once, because the next
///   check finds it paused;
/// - `resume`: the guard paused it, and it has been healthy for `recover_after` checks in a row;
/// - `complete`: healthy on day 7, or at `complete_at` percent of users or more;
/// - `none`: nothing to do (healthy and rolling out, still unhealthy but already paused, paused by someone else,
///   no phased release in progress).
package struct RolloutDecision: Sendable, Equatable {
    /// The decision, as the step's `decision` output says it.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case wait, pause, resume, complete, none
    }

    package var kind: Kind
    /// One line: which number, and by how much.
    package var reason: String
    /// The state to record for the next check.
    package var state: RolloutGuardState

    /// Decides one check.
    /// - Parameters:
    ///   - phasedState: INACTIVE, ACTIVE, PAUSED or COMPLETE; empty without a phased release.
    ///   - day: the phased release's day, 1 to 7.
    package static func decide(
        phasedState: String, day: Int, health: RolloutHealth, thresholds: RolloutThresholds, previous: RolloutGuardState
    ) -> RolloutDecision {
        var state = previous
        func decision(_ kind: Kind, _ reason: String) -> RolloutDecision { RolloutDecision(kind: kind, reason: reason, state: state) }

        guard phasedState == "ACTIVE" || phasedState == "PAUSED" else {
            state.pausedByGuard = false
            let what = phasedState.isEmpty ? "the version has no phased release" : "the phased release is \(phasedState)"
            return decision(.none, "\(what): nothing to watch")
        }
        let verdict = judge(health, thresholds)
        if verdict.judged.isEmpty {
            return decision(.wait, "nothing judged yet: " + (verdict.waiting.isEmpty ? "no threshold is set" : verdict.waiting.joined(separator: "; ")))
        }
        if !verdict.failures.isEmpty {
            state.consecutiveHealthy = 0
            let failures = verdict.failures.joined(separator: "; ")
            if phasedState == "ACTIVE" {
                state.pausedByGuard = true
                return decision(.pause, failures)
            }
            return decision(.none, "still unhealthy, the phased release stays paused: \(failures)")
        }
        state.consecutiveHealthy += 1
        let healthy = verdict.judged.joined(separator: "; ")
        if phasedState == "PAUSED" {
            guard previous.pausedByGuard else {
                return decision(.none, "healthy, but the phased release was paused by someone else; the guard resumes only its own pauses: \(healthy)")
            }
            guard state.consecutiveHealthy >= thresholds.recoverAfter else {
                return decision(
                    .none, "healthy for \(state.consecutiveHealthy) of the \(thresholds.recoverAfter) checks in a row (recover_after) before resuming: \(healthy)")
            }
            state.pausedByGuard = false
            state.consecutiveHealthy = 0
            return decision(.resume, "healthy for \(thresholds.recoverAfter) checks in a row (recover_after): \(healthy)")
        }
        let percent = RolloutThresholds.percent(onDay: day)
        if day >= 7 {
            return decision(.complete, "healthy at the end of the phased release (day \(day) of 7): \(healthy)")
        }
        if let completeAt = thresholds.completeAt, percent >= completeAt {
            return decision(
                .complete,
                "healthy at \(NumberText.string(percent))% of users (day \(day) of 7), complete_at \(NumberText.string(completeAt))%: \(healthy)")
        }
        return decision(.none, "healthy, rolling out (day \(day) of 7, \(NumberText.string(percent))% of users): \(healthy)")
    }

    /// What was judged (passed and failed, as lines), what failed, and what could not be judged yet.
    static func judge(_ health: RolloutHealth, _ thresholds: RolloutThresholds) -> (judged: [String], failures: [String], waiting: [String]) {
        var judged: [String] = []
        var failures: [String] = []
        var waiting: [String] = []
        func check(_ name: String, _ value: Double?, _ minimum: Double?, unit: String, decimals: Int) {
            guard let minimum else { return }
            guard let value else {
                waiting.append("no \(name) yet")
                return
            }
            let shown = RolloutHealth.number(value, decimals: decimals) + unit
            let limit = RolloutHealth.number(minimum, decimals: decimals) + unit
            if value < minimum {
                let by = RolloutHealth.number(minimum - value, decimals: decimals) + (unit == "%" ? " points" : "")
                let line = "\(name) \(shown) is \(by) below the minimum \(limit)"
                judged.append(line)
                failures.append(line)
            } else {
                judged.append("\(name) \(shown) ≥ \(limit)")
            }
        }
        if let sentry = health.sentry, thresholds.minCrashFreeSessions != nil || thresholds.minCrashFreeUsers != nil {
            if sentry.sessions < thresholds.minSessions {
                waiting.append("too few sessions: \(sentry.sessions) of the \(thresholds.minSessions) min_sessions")
            } else {
                check("crash-free sessions", sentry.crashFreeSessions, thresholds.minCrashFreeSessions, unit: "%", decimals: 2)
                check("crash-free users", sentry.crashFreeUsers, thresholds.minCrashFreeUsers, unit: "%", decimals: 2)
            }
        }
        if let ratings = health.ratings, let minimum = thresholds.minRating {
            if ratings.count < thresholds.minReviews {
                waiting.append("too few reviews: \(ratings.count) of the \(thresholds.minReviews) min_reviews")
            } else {
                check("rating (\(ratings.count) reviews)", ratings.average, minimum, unit: "", decimals: 2)
            }
        }
        return (judged, failures, waiting)
    }
}
