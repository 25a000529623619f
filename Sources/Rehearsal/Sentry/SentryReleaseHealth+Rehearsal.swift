import ReleaseSentry

/// A point of the local Sentry's scripted health is what the client reads back: one check's sessions and crash-free
/// rates in percent (``LocalSentryServer`` answers the rates as fractions, as the sessions endpoint does).
extension SentryReleaseHealth {
    /// A rehearsal's week: too few sessions, a crash spike (pause), still bad, then healthy twice (resume) and on.
    package static let rehearsalSeries: [SentryReleaseHealth] = [
        .init(sessions: 40, crashFreeSessions: 100, crashFreeUsers: 100),
        .init(sessions: 1_500, crashFreeSessions: 98.7, crashFreeUsers: 99.1),
        .init(sessions: 1_800, crashFreeSessions: 98.9, crashFreeUsers: 99.2),
        .init(sessions: 2_400, crashFreeSessions: 99.7, crashFreeUsers: 99.8),
        .init(sessions: 3_000, crashFreeSessions: 99.8, crashFreeUsers: 99.9),
        .init(sessions: 3_600, crashFreeSessions: 99.85, crashFreeUsers: 99.9),
    ]
}
