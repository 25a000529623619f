import Foundation
import Synchronization

/// A GitHub-Releases-compatible HTTP/1.1 server on 127.0.0.1, for tests and for rehearsing a release.
///
/// Releases and assets are kept in `storageDirectory` (`state.json` and `assets/<id>`), so a 1 GB upload is
/// streamed to disk, never held in memory, and a restarted server keeps what was published. It speaks the
/// endpoints a publisher needs (see ``LocalServerRoute``) with GitHub's shapes: drafts not found by tag,
/// `upload_url` templates pointing back at this server, `starter` assets, `sha256:` digests, 422
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
/// One thread accepts connections and one thread serves each connection; shared state sits behind one
/// `Mutex`, so the type is `Sendable`. Call ``stop()`` when done: the serving threads keep the server alive.
public final class LocalGitHubServer: Sendable {
    /// How the server authenticates and behaves.
    public struct Configuration: Sendable {
        /// Where releases and assets are stored (created if missing).
        public var storageDirectory: String
        /// The token with push access.
        public var token: String
        /// Tokens that can read but not push (`permissions.push` false, writes answered 403).
        public var readOnlyTokens: Set<String>
        /// The port to listen on; 0 picks a free one.
        public var port: UInt16
        /// Whether publishing makes a release immutable (no asset changes afterwards).
        public var immutableReleases: Bool
        /// The login `GET /user` answers.
        public var login: String
        /// `X-RateLimit-Limit`.
        public var rateLimit: Int

        public init(
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

    struct ArmedFault {
        var rule: LocalServerFaultRule
        var seen = 0
        var fired = 0
    }

    struct State {
        var snapshot: Snapshot
        var faults: [ArmedFault] = []
        var requests: [LocalServerRequest] = []
        var listener: Int32 = -1
        var port: UInt16 = 0
        var running = false
        var connections: Set<Int32> = []
        var rateRemaining: Int
        var rateReset: Int
    }

    public let configuration: Configuration
    let state: Mutex<State>
    /// The bound port, readable without the lock (response bodies embed URLs while the lock is held).
    private let boundPort = Atomic<Int>(0)

    /// Creates the server and loads what an earlier run stored in `storageDirectory`.
    /// - Throws: ``LocalServerError`` when the folder cannot be created or its state cannot be read.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        let assets = (configuration.storageDirectory as NSString).appendingPathComponent("assets")
        do {
            try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
        } catch {
            throw LocalServerError.storage(configuration.storageDirectory, "\(error.localizedDescription)")
        }
        var snapshot = Snapshot()
        let statePath = (configuration.storageDirectory as NSString).appendingPathComponent("state.json")
        if let data = FileManager.default.contents(atPath: statePath) {
            do {
                snapshot = try Self.decoder.decode(Snapshot.self, from: data)
            } catch {
                throw LocalServerError.storage(statePath, "cannot read state: \(error)")
            }
        }
        state = Mutex(State(
            snapshot: snapshot,
            rateRemaining: configuration.rateLimit,
            rateReset: Int(Date().timeIntervalSince1970) + 3600
        ))
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Binds 127.0.0.1 (port 0 picks a free one), starts serving, and returns the base URL.
    @discardableResult
    public func start() throws -> String {
        if let url = currentURL { return url }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw LocalServerError.socket("socket", errno) }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = configuration.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            let code = errno
            Foundation.close(listener)
            throw LocalServerError.socket("bind 127.0.0.1:\(configuration.port)", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        state.withLock {
            $0.listener = listener
            $0.port = port
            $0.running = true
        }
        boundPort.store(Int(port), ordering: .releasing)
        let thread = Thread { [self] in acceptLoop(listener) }
        thread.name = "local-github.accept"
        thread.start()
        return "http://127.0.0.1:\(port)"
    }

    /// Stops accepting, drops open connections. Stored releases stay in the storage folder.
    public func stop() {
        state.withLock { state in
            guard state.running else { return }
            state.running = false
            // Only shut down: the accept thread closes the descriptor when accept fails, so the number
            // cannot be reused (by another server's socket) while that thread may still call accept on it.
            shutdown(state.listener, Int32(SHUT_RDWR))
            state.listener = -1
            for descriptor in state.connections { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// `http://127.0.0.1:PORT` while running, else nil.
    public var currentURL: String? {
        state.withLock { $0.running ? "http://127.0.0.1:\($0.port)" : nil }
    }

    /// The base URL (`http://127.0.0.1:PORT`), as for `api` / `GITHUB_API_URL`; empty before ``start()``.
    public var url: String {
        let port = boundPort.load(ordering: .acquiring)
        return port == 0 ? "" : "http://127.0.0.1:\(port)"
    }

    var isRunning: Bool { state.withLock { $0.running } }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                Foundation.close(listener)
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard state.running else { return false }
                state.connections.insert(descriptor)
                return true
            }
            guard accepted else {
                Foundation.close(descriptor)
                Foundation.close(listener)
                return
            }
            let thread = Thread { [self] in serve(descriptor) }
            thread.name = "local-github.connection"
            thread.start()
        }
    }

    private func serve(_ descriptor: Int32) {
        let connection = LocalServerConnection(descriptor: descriptor)
        defer {
            state.withLock { state in
                state.connections.remove(descriptor)
                connection.close()
            }
        }
        while isRunning {
            guard let head = try? connection.readHead() else { return }
            guard handle(head, on: connection) else { return }
        }
    }

    // MARK: Faults and inspection

    /// Arms a fault for the requests `rule` matches. Rules are checked in the order added.
    public func addFault(_ rule: LocalServerFaultRule) {
        state.withLock { $0.faults.append(ArmedFault(rule: rule)) }
    }

    /// Disarms every fault.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    /// Faults armed but not yet injected as often as asked.
    public var pendingFaults: [LocalServerFaultRule] {
        state.withLock { $0.faults.filter { $0.fired < $0.rule.times }.map(\.rule) }
    }

    /// The fault for this request, if an armed rule matches it now.
    func takeFault(method: String, path: String, route: LocalServerRoute) -> LocalServerFault? {
        state.withLock { state in
            var chosen: LocalServerFault?
            for index in state.faults.indices {
                guard state.faults[index].rule.matches(method: method, path: path, route: route) else { continue }
                state.faults[index].seen += 1
                let armed = state.faults[index]
                if chosen == nil, armed.seen >= armed.rule.occurrence, armed.fired < armed.rule.times {
                    state.faults[index].fired += 1
                    chosen = armed.rule.fault
                }
            }
            return chosen
        }
    }

    /// Every request received so far, oldest first.
    public var requests: [LocalServerRequest] { state.withLock { $0.requests } }

    /// Forgets the recorded requests.
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    /// Every release of `repository` (`owner/name`), newest first, or of all repositories.
    public func releases(repository: String? = nil) -> [LocalRelease] {
        state.withLock { state in
            state.snapshot.releases.filter { repository == nil || $0.repository == repository }.sorted { $0.id > $1.id }
        }
    }

    /// The assets of release `releaseID`, in upload order.
    public func assets(releaseID: Int) -> [LocalReleaseAsset] {
        state.withLock { $0.snapshot.assets.filter { $0.releaseID == releaseID } }
    }

    /// Where the bytes of asset `id` are stored.
    public func assetPath(_ id: Int) -> String {
        (configuration.storageDirectory as NSString).appendingPathComponent("assets/\(id)")
    }

    /// Persists the snapshot; called with the lock held after every change.
    func persist(_ snapshot: Snapshot) {
        let path = (configuration.storageDirectory as NSString).appendingPathComponent("state.json")
        // `.atomic` writes a temporary file and renames it; no fsync: this is a rehearsal store, not a ledger.
        if let data = try? Self.encoder.encode(snapshot) {
            try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
