/// What a rollout guard calls healthy: `appstore.rollout`'s guard options, checked.
///
/// A number without its threshold is read but not judged; a source with fewer sessions (or reviews) than its
/// minimum is not judged yet.
package struct RolloutThresholds: Sendable, Equatable {
    /// Crash-free sessions, percent.
    package var minCrashFreeSessions: Double?
    /// Crash-free users, percent.
    package var minCrashFreeUsers: Double?
    /// Below this many sessions Sentry's numbers are not judged.
    package var minSessions: Int
    /// Mean star rating, 1 to 5.
    package var minRating: Double?
    /// Below this many reviews the rating is not judged.
    package var minReviews: Int
    /// Healthy checks in a row before a phased release the guard paused is resumed.
    package var recoverAfter: Int
    /// Complete the phased release once it reaches this percent of users (and is healthy); nil waits for day 7.
    package var completeAt: Double?

    package init(
        minCrashFreeSessions: Double? = nil, minCrashFreeUsers: Double? = nil, minSessions: Int = 100, minRating: Double? = nil,
        minReviews: Int = 10, recoverAfter: Int = 2, completeAt: Double? = nil
    ) {
        self.minCrashFreeSessions = minCrashFreeSessions
        self.minCrashFreeUsers = minCrashFreeUsers
        self.minSessions = minSessions
        self.minRating = minRating
        self.minReviews = minReviews
        self.recoverAfter = recoverAfter
        self.completeAt = completeAt
    }

    /// The share of automatic updates Apple's phased release offers on each day (1 to 7), in percent.
    /// https://developer.apple.com/help/app-store-connect/update-your-app/release-a-version-update-in-phases
    package static func percent(onDay day: Int) -> Double {
        let schedule: [Double] = [1, 2, 5, 10, 20, 50, 100]
        guard day >= 1 else { return 0 }
        return schedule[min(day, 7) - 1]
    }
}
