/// One release's health as Sentry reports it, in percent.
///
/// Sentry's two endpoints use two scales: the sessions endpoint answers `crash_free_rate(...)` as a fraction
/// (0.9942), release details as a percent (99.42). Everything here is a percent, converted once where it is read
/// (``SentryClient``), so thresholds (`min_crash_free_sessions: 99.5`) compare like with like.
package struct SentryReleaseHealth: Sendable, Equatable, Codable {
    /// Sessions in the window (`sum(session)`).
    package var sessions: Int
    /// Crash-free sessions in percent; nil when there were none.
    package var crashFreeSessions: Double?
    /// Crash-free users in percent; nil when there were none.
    package var crashFreeUsers: Double?

    enum CodingKeys: String, CodingKey {
        case sessions
        case crashFreeSessions = "crash_free_sessions"
        case crashFreeUsers = "crash_free_users"
    }

    package init(sessions: Int, crashFreeSessions: Double?, crashFreeUsers: Double?) {
        self.sessions = sessions
        self.crashFreeSessions = crashFreeSessions
        self.crashFreeUsers = crashFreeUsers
    }

    /// A fraction from the sessions endpoint (0 to 1) as a percent; nil stays nil, and a value outside 0…1 is not a
    /// fraction Sentry sends (nil, so it is never judged).
    package static func percent(fromFraction fraction: Double?) -> Double? {
        guard let fraction, fraction.isFinite, (0...1).contains(fraction) else { return nil }
        return fraction * 100
    }
}
