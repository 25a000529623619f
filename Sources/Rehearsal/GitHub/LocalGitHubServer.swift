import Foundation
import Synchronization

/// A GitHub-Releases-compatible HTTP/1.1 server on 127.0.0.1, for tests and for rehearsing a release.
///
/// Releases and assets are kept in `storageDirectory` (`state.json` and `assets/<id>`), so an upload of
/// gigabytes is streamed to disk, never held in memory, and a restarted server keeps what was published. It
/// speaks the endpoints a publisher needs (see ``LocalServerRoute``) with GitHub's shapes: drafts not found by
/// tag, `upload_url` templates pointing back at this server, `starter` assets, `sha256:` digests, 422
/// `already_exists`, immutable releases, pagination with `Link`, authentication and rate-limit headers.
/// Faults are injected per test with ``addFault(_:)``; every request is recorded (``requests``).
///
/// ```swift
/// let server = try LocalGitHubServer(configuration: .init(storageDirectory: dir, token: "t0k3n"))
/// let url = try server.start()          // "http://127.0.0.1:54321"
/// server.addFault(.upload(.badGatewayAfterBody))
/// defer { server.stop() }
/// ```
///
/// HTTP is ``LocalHTTPServer``'s (SwiftNIO); this type is the Releases API on top. Shared state sits behind one
/// `Mutex`, so the type is `Sendable`. Call ``stop()`` when done: a running server keeps itself alive.
package final class LocalGitHubServer: Sendable {
    /// How the server authenticates and behaves.
    package struct Configuration: Sendable {
        /// Where releases and assets are stored (created if missing).
        package var storageDirectory: String
        /// The token with push access.
        package var token: String
        /// Tokens that can read but not push (`permissions.push` false, writes answered 403).
        package var readOnlyTokens: Set<String>
        /// The port to listen on; 0 picks a free one.
        package var port: UInt16
        /// Whether publishing makes a release immutable (no asset changes afterwards).
        package var immutableReleases: Bool
        /// The login `GET /user` answers.
        package var login: String
        /// `X-RateLimit-Limit`.
        package var rateLimit: Int

        package init(
            storageDirectory: String,
            token: String,
            readOnlyTokens: Set<String> = [],
            port: UInt16 = 0,
            immutableReleases: Bool = false,
            login: String = "release-bot",
            rateLimit: Int = 5000
        ) {
            self.storageDirectory = storageDirectory
            self.token = token
            self.readOnlyTokens = readOnlyTokens
            self.port = port
            self.immutableReleases = immutableReleases
            self.login = login
            self.rateLimit = rateLimit
        }
    }

    /// What is persisted in `state.json`.
    struct Snapshot: Codable {
        var nextID = 1
        var releases: [LocalRelease] = []
        var assets: [LocalReleaseAsset] = []
    }

    struct State {
        var snapshot: Snapshot
        var faults = FaultSchedule<LocalServerFaultRule>()
        var rateRemaining: Int
        var rateReset: Int
    }

    package let configuration: Configuration
    let state: Mutex<State>
    let http = LocalHTTPServer(name: "local GitHub server")
    let stateFile: SnapshotFile<Snapshot>

    /// Creates the server and loads what an earlier run stored in `storageDirectory`.
    /// - Throws: ``LocalServerError`` when the folder cannot be created or its state cannot be read.
    package init(configuration: Configuration) throws {
        self.configuration = configuration
        let assets = (configuration.storageDirectory as NSString).appendingPathComponent("assets")
        do {
            try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
        } catch {
            throw LocalServerError.storage(http.name, configuration.storageDirectory, "\(error.localizedDescription)")
        }
        stateFile = SnapshotFile(directory: configuration.storageDirectory, server: http.name)
        state = Mutex(
            State(
                snapshot: try stateFile.load() ?? Snapshot(),
                rateRemaining: configuration.rateLimit,
                rateReset: Int(Date().timeIntervalSince1970) + 3600
            ))
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Binds 127.0.0.1 (``Configuration/port`` 0 picks a free one), starts serving, and returns the base URL.
    /// - Throws: ``LocalServerError/listen(_:_:_:)`` when the port cannot be bound.
    @discardableResult
    package func start() throws -> String {
        try http.start(self, port: configuration.port)
    }

    /// Stops listening and drops open connections. Stored releases stay in the storage folder.
    package func stop() {
        http.stop()
    }

    /// `http://127.0.0.1:PORT` while running, else nil.
    package var currentURL: String? { http.currentURL }

    /// The base URL (`http://127.0.0.1:PORT`), as for `api` / `GITHUB_API_URL`; empty before ``start()``.
    package var url: String { http.url }

    // MARK: Faults and inspection

    /// Arms a fault for the requests `rule` matches. Rules are checked in the order added.
    package func addFault(_ rule: LocalServerFaultRule) {
        state.withLock { $0.faults.add(rule, occurrence: rule.occurrence, times: rule.times) }
    }

    /// Disarms every fault.
    package func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    /// Faults armed but not yet injected as often as asked.
    package var pendingFaults: [LocalServerFaultRule] {
        state.withLock { $0.faults.pending }
    }

    /// The fault for this request, if an armed rule matches it now.
    func takeFault(method: String, path: String, route: LocalServerRoute) -> LocalServerFault? {
        state.withLock { state in
            state.faults.take { $0.matches(method: method, path: path, route: route) }?.fault
        }
    }

    /// Every request received so far, oldest first.
    package var requests: [LocalServerRequest] {
        http.requests.map { LocalServerRequest($0, route: Self.route(method: $0.method, path: $0.path)) }
    }

    /// Forgets the recorded requests.
    package func clearRequests() { http.clearRequests() }

    /// Every release of `repository` (`owner/name`), newest first, or of all repositories.
    package func releases(repository: String? = nil) -> [LocalRelease] {
        state.withLock { state in
            state.snapshot.releases.filter { repository == nil || $0.repository == repository }.sorted { $0.id > $1.id }
        }
    }

    /// The assets of release `releaseID`, in upload order.
    package func assets(releaseID: Int) -> [LocalReleaseAsset] {
        state.withLock { $0.snapshot.assets.filter { $0.releaseID == releaseID } }
    }

    /// Where the bytes of asset `id` are stored.
    package func assetPath(_ id: Int) -> String {
        (configuration.storageDirectory as NSString).appendingPathComponent("assets/\(id)")
    }

    /// Persists the snapshot; called with the lock held after every change.
    func persist(_ snapshot: Snapshot) {
        stateFile.save(snapshot)
    }
}
