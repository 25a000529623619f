import Foundation
import ReleaseSupport
import Synchronization

/// An App Store Connect API stand-in on 127.0.0.1, for tests and for rehearsing an upload, TestFlight and an App Store
/// submission: the operations of Apple's OpenAPI subset that ``AppStoreConnectOperation`` lists, with Apple's JSON:API
/// shapes, upload URLs pointing back at itself, and App Review's state machine (`+AppStore.swift`).
///
/// - Every `/v1` request needs a bearer token that ``AppStoreConnectTokenVerifier`` accepts for one of
///   ``Configuration/keys``; otherwise 401 with Apple's `NOT_AUTHORIZED` body.
/// - `POST /v1/buildUploadFiles` splits the file into parts of ``Configuration/partSize`` bytes; each part is a
///   `PUT <base>/upload/<fileID>/<part>` that must carry exactly the headers given and no `Authorization`, and
///   is streamed to disk at its offset. The commit (`uploaded: true`) checks every part arrived and the
///   checksum; the build upload then goes `AWAITING_UPLOAD → PROCESSING → COMPLETE` (or `FAILED`) and its build
///   `PROCESSING → VALID`, each after ``Configuration/processingPolls`` reads.
/// - State is kept in `storageDirectory` (`state.json`, `uploads/<fileID>`), so a second rehearsal shows a
///   re-run converging. Faults are armed with ``addFault(_:)``; ``exchanges()`` lists every request with both
///   bodies.
///
/// ```swift
/// let server = try LocalAppStoreConnectServer(configuration: .init(
///     storageDirectory: dir, keys: [.init(keyID: "2X9R4HXF34", issuerID: issuer, publicKeyPEM: pem)]))
/// let url = try server.start()          // "http://127.0.0.1:54321"
/// server.addApp(bundleID: "com.example.app", name: "Example")
/// defer { server.stop() }
/// ```
package final class LocalAppStoreConnectServer: Sendable {
    /// A key whose tokens are accepted: its id (`kid`), issuer (`iss`) and public half.
    package struct AcceptedKey: Sendable {
        package var keyID: String
        package var issuerID: String
        /// The P-256 public key in PEM (`-----BEGIN PUBLIC KEY-----`); a `.p8` private key is accepted too.
        package var publicKeyPEM: String

        package init(keyID: String, issuerID: String, publicKeyPEM: String) {
            self.keyID = keyID
            self.issuerID = issuerID
            self.publicKeyPEM = publicKeyPEM
        }
    }

    /// How the server authenticates and behaves.
    package struct Configuration: Sendable {
        /// Where the state (`state.json`) and received upload bytes (`uploads/`) are kept; created if missing.
        package var storageDirectory: String
        /// The keys whose tokens are accepted.
        package var keys: [AcceptedKey]
        /// The port to listen on; 0 picks a free one.
        package var port: Int
        /// Upload operations split a file in parts of this many bytes.
        package var partSize: Int
        /// Reads of a processing build upload (or build) before it moves to its next state.
        package var processingPolls: Int
        /// Rehearsal mode: listing apps by an unknown bundle id creates the app, and listing an app's beta
        /// groups by an unknown name creates the group.
        package var autoCreate: Bool
        /// Page size of collections when the request has no `limit`.
        package var defaultPageLimit: Int
        /// The team whose certificates and profiles the signing routes issue (`TeamIdentifier` in profiles).
        package var teamID: String = "ABCDE12345"

        package init(
            storageDirectory: String,
            keys: [AcceptedKey],
            port: Int = 0,
            partSize: Int = 5 << 20,
            processingPolls: Int = 2,
            autoCreate: Bool = false,
            defaultPageLimit: Int = 50
        ) {
            self.storageDirectory = storageDirectory
            self.keys = keys
            self.port = port
            self.partSize = partSize
            self.processingPolls = processingPolls
            self.autoCreate = autoCreate
            self.defaultPageLimit = defaultPageLimit
        }
    }

    struct State {
        var snapshot: AppStoreConnectSnapshot
        var faults = FaultSchedule<AppStoreConnectFault>()
        var exchanges: [AppStoreConnectExchange] = []
        var uploadedBytes: Int64 = 0
        /// Signed webhook deliveries waiting to be sent (``deliverWebhooks()``), and those sent.
        var outbox: [AppStoreConnectWebhookDelivery] = []
        var deliveries: [AppStoreConnectWebhookDelivery] = []
    }

    package let configuration: Configuration
    let state: Mutex<State>
    let verifier: AppStoreConnectTokenVerifier
    let http = LocalHTTPServer(name: "local App Store Connect server")
    let stateFile: SnapshotFile<AppStoreConnectSnapshot>
    /// The test authority that issues certificates and signs profiles, made on first use.
    let signingAuthority = Mutex<LocalSigningAuthority?>(nil)

    /// Creates the server and loads what an earlier run stored in `storageDirectory`.
    /// - Throws: ``LocalServerError`` when the folder cannot be created, its state cannot be read, or a key is
    ///   not a P-256 public key.
    package init(configuration: Configuration) throws {
        var configuration = configuration
        configuration.partSize = max(1, configuration.partSize)
        configuration.processingPolls = max(0, configuration.processingPolls)
        configuration.defaultPageLimit = min(200, max(1, configuration.defaultPageLimit))
        self.configuration = configuration
        verifier = try AppStoreConnectTokenVerifier(keys: configuration.keys, server: http.name)
        let uploads = (configuration.storageDirectory as NSString).appendingPathComponent("uploads")
        do {
            try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        } catch {
            throw LocalServerError.storage(http.name, configuration.storageDirectory, error.localizedDescription)
        }
        stateFile = SnapshotFile(directory: configuration.storageDirectory, server: http.name)
        state = Mutex(State(snapshot: try stateFile.load() ?? AppStoreConnectSnapshot()))
    }

    deinit { stop() }

    // MARK: Lifecycle

    /// Binds 127.0.0.1 (``Configuration/port`` 0 picks a free one), starts serving, and returns the base URL.
    /// - Throws: ``LocalServerError/listen(_:_:_:)`` when the port cannot be bound.
    @discardableResult
    package func start() throws -> String {
        guard let port = UInt16(exactly: configuration.port) else {
            throw LocalServerError.listen(http.name, "127.0.0.1:\(configuration.port)", "not a port number")
        }
        return try http.start(self, port: port)
    }

    /// Stops listening and drops open connections. The state stays in the storage folder.
    package func stop() {
        http.stop()
    }

    /// The base URL (`http://127.0.0.1:PORT`), what `api_url` points at; empty before ``start()``.
    package var url: String { http.url }

    // MARK: Seeding

    /// Adds an app (or returns the one with `bundleID`); returns its id.
    @discardableResult
    package func addApp(bundleID: String, name: String) -> String {
        mutate { $0.snapshot.app(bundleID: bundleID, name: name) }
    }

    /// Adds a beta group to the app of `bundleID` (created if missing), or returns the group of that name.
    @discardableResult
    package func addBetaGroup(bundleID: String, name: String, isInternal: Bool = false) -> String {
        mutate { state in
            let appID = state.snapshot.app(bundleID: bundleID, name: bundleID)
            return state.snapshot.betaGroup(appID: appID, name: name, isInternal: isInternal)
        }
    }

    /// Adds a processed build (as if uploaded earlier) to the app of `bundleID` (created if missing); returns
    /// the build's id.
    @discardableResult
    package func addBuild(bundleID: String, version: String, build: String, platform: ApplePlatform = .iOS, processingState: String = "VALID") -> String {
        mutate { state in
            let appID = state.snapshot.app(bundleID: bundleID, name: bundleID)
            let index = state.snapshot.createBuild(appID: appID, version: version, build: build, platform: platform.appStoreConnect, uploadID: nil)
            state.snapshot.builds[index].usesNonExemptEncryption = false
            state.snapshot.setProcessingState(processingState, ofBuildAt: index)
            return state.snapshot.builds[index].id
        }
    }

    /// Runs `change` on the state under the lock and persists the snapshot, unless `change` throws (handlers
    /// throw before they change anything). A build upload or App Store version whose state changed queues a signed
    /// delivery for each of its app's webhooks that asked for the event.
    func mutate<T>(_ change: (inout State) throws -> T) rethrows -> T {
        try state.withLock { state in
            let before = Self.watchedStates(state.snapshot)
            let result = try change(&state)
            queueDeliveries(since: before, in: &state)
            stateFile.save(state.snapshot)
            return result
        }
    }

    // MARK: Faults and inspection

    /// Arms a fault. Faults are checked in the order added.
    package func addFault(_ fault: AppStoreConnectFault) {
        state.withLock { $0.faults.add(fault, occurrence: fault.occurrence, times: fault.times) }
    }

    /// Faults armed but not yet injected as often as asked.
    package var pendingFaults: [AppStoreConnectFault] {
        state.withLock { $0.faults.pending }
    }

    /// Every request answered since start, oldest first.
    package func exchanges() -> [AppStoreConnectExchange] {
        state.withLock { $0.exchanges }
    }

    /// Forgets the recorded exchanges and the uploaded byte count.
    package func clearExchanges() {
        state.withLock {
            $0.exchanges.removeAll()
            $0.uploadedBytes = 0
        }
    }

    /// Body bytes received on upload URLs since start (whole or cut-off parts): 0 for a re-run that converged.
    package func uploadedByteCount() -> Int64 {
        state.withLock { $0.uploadedBytes }
    }

    /// Where the bytes of upload file `fileID` are kept.
    package func uploadPath(_ fileID: String) -> String {
        (configuration.storageDirectory as NSString).appendingPathComponent("uploads/\(fileID)")
    }
}
