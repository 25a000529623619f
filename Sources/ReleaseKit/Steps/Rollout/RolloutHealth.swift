import ReleaseAppStoreConnect
import ReleaseSentry

/// The numbers a rollout guard judges: Sentry's release health and the App Store ratings of the version, each nil
/// when the pipeline does not name that source (or it could not be read).
package struct RolloutHealth: Sendable, Equatable, Codable {
    package var sentry: SentryReleaseHealth?
    package var ratings: AppStoreRatings?

    package init(sentry: SentryReleaseHealth? = nil, ratings: AppStoreRatings? = nil) {
        self.sentry = sentry
        self.ratings = ratings
    }

    /// The numbers in one line for the log: `crash-free sessions 99.82% · crash-free users 99.90% · 1,204 sessions · rating 4.6 of 37 reviews`.
    package var summary: String {
        var parts: [String] = []
        if let sentry {
            parts.append("crash-free sessions \(Self.percent(sentry.crashFreeSessions))")
            parts.append("crash-free users \(Self.percent(sentry.crashFreeUsers))")
            parts.append("\(sentry.sessions) sessions")
        }
        if let ratings {
            parts.append("rating \(ratings.average.map { Self.number($0, decimals: 2) } ?? "none") of \(ratings.count) reviews")
        }
        return parts.isEmpty ? "no health source" : parts.joined(separator: " · ")
    }

    /// `99.82%`, or `no data`.
    static func percent(_ value: Double?) -> String {
        value.map { number($0, decimals: 2) + "%" } ?? "no data"
    }

    /// `value` with `decimals` digits after the point, the same on every platform.
    static func number(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(abs(scaled).truncatingRemainder(dividingBy: scale))
        let digits = String(fraction)
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }
}
