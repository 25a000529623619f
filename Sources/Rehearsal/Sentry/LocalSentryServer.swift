import Foundation
import ReleaseSentry
import ReleaseSupport
import Synchronization

/// A local Sentry that answers the release-health sessions endpoint the way Sentry's contract
/// (`../shared/reference/sentry`, `getOrganizationSessions`) describes it, from a scripted series of health numbers:
/// each sessions request gets the next point of the series (the last one repeats), so successive guard checks see
/// a build's health change.
///
/// It checks what Sentry checks: the bearer token (401 `{"detail": "Invalid token"}` for another one), the
/// required `field` with Sentry's field names, `statsPeriod` or `start`/`end`, an `interval` of at least an hour,
/// and a `query` in Sentry's search syntax. Rates are answered as fractions (0 to 1), as the real endpoint does.
/// With a storage folder, the series (`series.json`, editable) and the position (`state.json`) are kept there, so
/// a second rehearsal continues the series.
package final class LocalSentryServer: Sendable {
    package struct Configuration: Sendable {
        /// The only token accepted; nil accepts any bearer token (a rehearsal, whose token is a placeholder).
        package var token: String?
        /// The health answered, check after check.
        package var series: [SentryReleaseHealth]
        /// Where the series and the position are kept; nil keeps them in memory.
        package var storageDirectory: String?
        package var port: UInt16

        package init(token: String? = nil, series: [SentryReleaseHealth] = SentryReleaseHealth.rehearsalSeries, storageDirectory: String? = nil, port: UInt16 = 0) {
            self.token = token
            self.series = series
            self.storageDirectory = storageDirectory
            self.port = port
        }
    }

    struct State: Codable {
        var series: [SentryReleaseHealth]
        var position = 0
        /// Answer 503 to every request (Sentry down), for tests.
        var unavailable = false
        /// The releases asked about, in order.
        var releases: [String] = []

        enum CodingKeys: String, CodingKey { case position }
        init(series: [SentryReleaseHealth]) { self.series = series }
        init(from decoder: any Decoder) throws {
            series = []
            position = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .position) ?? 0
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
        }
    }

    /// The field names the sessions endpoint accepts.
    static let fields: Set<String> = [
        "sum(session)", "count_unique(user)", "crash_rate(session)", "crash_rate(user)", "crash_free_rate(session)", "crash_free_rate(user)",
        "avg(session.duration)", "p50(session.duration)", "p75(session.duration)", "p90(session.duration)", "p95(session.duration)",
        "p99(session.duration)", "max(session.duration)",
    ]

    package let configuration: Configuration
    private let http = LocalHTTPServer(name: "local Sentry")
    private let state: Mutex<State>

    /// - Throws: ``LocalServerError/storage(_:_:_:)`` when a `series.json` in the storage folder is not a series.
    package init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        var initial = State(series: configuration.series)
        if let folder = configuration.storageDirectory {
            let seriesFile = (folder as NSString).appendingPathComponent("series.json")
            if let data = FileManager.default.contents(atPath: seriesFile) {
                do {
                    initial.series = try JSONDecoder().decode([SentryReleaseHealth].self, from: data)
                } catch {
                    throw LocalServerError.storage("local Sentry", seriesFile, "not a list of {sessions, crash_free_sessions, crash_free_users}")
                }
            } else {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                if let data = try? encoder.encode(configuration.series) { try? AtomicFile.write(data, to: seriesFile) }
            }
            let stateFile = (folder as NSString).appendingPathComponent("state.json")
            if let data = FileManager.default.contents(atPath: stateFile), let saved = try? JSONDecoder().decode(State.self, from: data) {
                initial.position = saved.position
            }
        }
        state = Mutex(initial)
    }

    deinit { stop() }

    /// Binds 127.0.0.1 and returns the base URL (`http://127.0.0.1:PORT`), which stands for `https://sentry.io`.
    @discardableResult
    package func start() throws -> String {
        try http.start(self, port: configuration.port)
    }

    package func stop() { http.stop() }

    package var url: String { http.url }

    /// Every request received, oldest first.
    package var requests: [RecordedRequest] { http.requests }

    /// The releases the sessions endpoint was asked about, oldest first.
    package var releases: [String] { state.withLock { $0.releases } }

    /// How many checks were answered from the series so far.
    package var position: Int { state.withLock { $0.position } }

    /// Replaces the series and starts it over.
    package func script(_ series: [SentryReleaseHealth]) {
        state.withLock {
            $0.series = series
            $0.position = 0
        }
    }

    /// Makes every request fail with 503 (Sentry down), or serve again.
    package func setUnavailable(_ unavailable: Bool) {
        state.withLock { $0.unavailable = unavailable }
    }

    /// One line per request: `GET /api/0/organizations/acme/sessions/?…  200`.
    package func summary() -> [String] {
        requests.map { "\($0.method) \($0.target.prefix(160))  \($0.status)" }
    }

    /// The answer to one request: status and JSON.
    func answer(method: String, path: String, query: [(String, String)], authorization: String?) -> (Int, [String: Any]) {
        if state.withLock({ $0.unavailable }) { return (503, ["detail": "Service unavailable"]) }
        guard let authorization, authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            return (401, ["detail": "Authentication credentials were not provided."])
        }
        if let token = configuration.token, authorization != "Bearer \(token)" { return (401, ["detail": "Invalid token"]) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard segments.count == 5, segments[0] == "api", segments[1] == "0", segments[2] == "organizations", segments[4] == "sessions",
            path.hasSuffix("/")
        else {
            return (404, ["detail": "The requested resource does not exist"])
        }
        guard method == "GET" else { return (405, ["detail": "Method \"\(method)\" not allowed."]) }
        let fields = query.filter { $0.0 == "field" }.map(\.1)
        guard !fields.isEmpty else { return (400, ["detail": "Request is missing a \"field\""]) }
        if let bad = fields.first(where: { !Self.fields.contains($0) }) { return (400, ["detail": "Invalid field: \"\(bad)\""]) }
        let value = { (name: String) in query.last(where: { $0.0 == name })?.1 }
        guard value("statsPeriod") != nil || (value("start") != nil && value("end") != nil) else {
            return (400, ["detail": "Either statsPeriod or start and end must be given"])
        }
        if let interval = value("interval"), !["1h", "2h", "3h", "4h", "6h", "8h", "12h", "1d", "24h"].contains(interval) {
            return (400, ["detail": "The interval has to be a multiple of the minimum interval of one hour and must divide a day evenly."])
        }
        let search = value("query") ?? ""
        let release: String?
        if search.hasPrefix("release:\""), search.hasSuffix("\""), search.count > 10 {
            release = String(search.dropFirst("release:\"".count).dropLast())
        } else if search.isEmpty {
            release = nil
        } else {
            return (400, ["detail": "Invalid search query: \(search.prefix(100))"])
        }
        let point: SentryReleaseHealth = state.withLock { state in
            let series = state.series.isEmpty ? [SentryReleaseHealth(sessions: 0, crashFreeSessions: nil, crashFreeUsers: nil)] : state.series
            let point = series[min(state.position, series.count - 1)]
            state.position += 1
            if let release { state.releases.append(release) }
            if let folder = configuration.storageDirectory, let data = try? JSONEncoder().encode(state) {
                try? AtomicFile.write(data, to: (folder as NSString).appendingPathComponent("state.json"))
            }
            return point
        }
        var totals: [String: Any] = [:]
        for field in fields {
            switch field {
            case "sum(session)": totals[field] = point.sessions
            case "crash_free_rate(session)": totals[field] = Self.fraction(point.sessions == 0 ? nil : point.crashFreeSessions)
            case "crash_free_rate(user)": totals[field] = Self.fraction(point.sessions == 0 ? nil : point.crashFreeUsers)
            case "crash_rate(session)": totals[field] = Self.fraction(point.crashFreeSessions.map { 100 - $0 })
            case "crash_rate(user)": totals[field] = Self.fraction(point.crashFreeUsers.map { 100 - $0 })
            default: totals[field] = NSNull()
            }
        }
        let end = Date()
        let start = end.addingTimeInterval(-86_400)
        // `series` is required by the contract: one value per interval (one interval here).
        let group: [String: Any] = ["by": [String: Any](), "totals": totals, "series": totals.mapValues { [$0] }]
        return (
            200,
            [
                "start": Timestamp.iso8601(start), "end": Timestamp.iso8601(end), "intervals": [Timestamp.iso8601(start)],
                "groups": [group], "query": search,
            ]
        )
    }

    /// A percent as the fraction the endpoint answers, or JSON null.
    static func fraction(_ percent: Double?) -> Any {
        percent.map { $0 / 100 } ?? NSNull()
    }
}

extension LocalSentryServer: LocalHTTPResponder {
    func respond(to exchange: ServerExchange) async {
        await exchange.drain()
        let items = URLComponents(string: "http://127.0.0.1" + exchange.target)?.queryItems ?? []
        let (status, json) = answer(
            method: exchange.method, path: exchange.path, query: items.map { ($0.name, $0.value ?? "") },
            authorization: exchange.header("Authorization"))
        let body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        // Down for a moment: ask for an immediate retry, as a load balancer in front of Sentry may.
        let retry: [(String, String)] = status == 503 ? [("Retry-After", "0")] : []
        await exchange.respond(status: status, headers: [("Content-Type", "application/json")] + retry, body: Array(body))
    }
}
