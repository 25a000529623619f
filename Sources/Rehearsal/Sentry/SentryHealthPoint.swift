/// One step of the local Sentry's scripted health: what the sessions endpoint answers for one check.
package struct SentryHealthPoint: Codable, Sendable, Equatable {
    /// Sessions in the window.
    package var sessions: Int
    /// Crash-free sessions in percent (the endpoint answers it as a fraction); nil answers null.
    package var crashFreeSessions: Double?
    /// Crash-free users in percent; nil answers null.
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

    /// A rehearsal's week: too few sessions, a crash spike (pause), still bad, then healthy twice (resume) and on.
    package static let rehearsalSeries: [SentryHealthPoint] = [
        .init(sessions: 40, crashFreeSessions: 100, crashFreeUsers: 100),
        .init(sessions: 1_500, crashFreeSessions: 98.7, crashFreeUsers: 99.1),
        .init(sessions: 1_800, crashFreeSessions: 98.9, crashFreeUsers: 99.2),
        .init(sessions: 2_400, crashFreeSessions: 99.7, crashFreeUsers: 99.8),
        .init(sessions: 3_000, crashFreeSessions: 99.8, crashFreeUsers: 99.9),
        .init(sessions: 3_600, crashFreeSessions: 99.85, crashFreeUsers: 99.9),
    ]
}
