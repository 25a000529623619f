import Foundation
import Rehearsal
import ReleaseTestSupport
import Synchronization

@testable import ReleaseGitHub
@testable import ReleaseHTTP
@testable import ReleaseSupport

/// A local GitHub server in a temporary folder, a client pointed at it with fast retries, and helpers to
/// make asset files. Records every log line and every requested back-off.
final class GitHubTestFixture: Sendable {
    static let token = "ghp_TestToken1234567890abcdefXYZ"
    static let readOnlyToken = "ghp_ReadOnly0987654321zyxwvuts"
    static let repo = "octo/app"

    let directory: String
    let server: LocalGitHubServer
    let url: String
    let logs = Recorder<String>()
    let delays = Recorder<Duration>()

    /// The token with push access this server accepts.
    let token: String

    init(immutable: Bool = false, token: String = GitHubTestFixture.token) throws {
        self.token = token
        directory = TestTemporary.root + "/release-github-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/files", withIntermediateDirectories: true)
        server = try LocalGitHubServer(
            configuration: .init(
                storageDirectory: directory + "/server", token: token, readOnlyTokens: [Self.readOnlyToken],
                immutableReleases: immutable
            ))
        url = try server.start()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A retry policy that records the waits and sleeps at most a few milliseconds.
    func retryPolicy(attempts: Int = 4) -> RetryPolicy {
        let delays = self.delays
        return RetryPolicy(
            maxAttempts: attempts, baseDelay: .milliseconds(10), maxDelay: .seconds(30), jitter: false,
            sleep: { delay in
                delays.append(delay)
                try await Task.sleep(for: .milliseconds(2))
            }
        )
    }

    func configuration(attempts: Int = 4) -> HTTPClient.Configuration {
        let logs = self.logs
        return HTTPClient.Configuration(
            connectTimeout: .seconds(5), stallTimeout: .seconds(1), retryPolicy: retryPolicy(attempts: attempts),
            onRetry: { line in logs.append(line) }
        )
    }

    func client(token: String? = nil, attempts: Int = 4) throws -> GitHubClient {
        try GitHubClient(apiURL: url, token: token ?? self.token, configuration: configuration(attempts: attempts))
    }

    func publisher(token: String? = nil, attempts: Int = 4) throws -> ReleasePublisher {
        let logs = self.logs
        return ReleasePublisher(
            client: try client(token: token, attempts: attempts),
            observer: PublishObserver(log: { line in logs.append(line) }),
            retry: retryPolicy(attempts: attempts)
        )
    }

    /// Writes `size` pseudo-random bytes (seeded by `seed`) to `files/name`; returns the path.
    @discardableResult
    func file(_ name: String, size: Int, seed: UInt8 = 1) throws -> String {
        let path = directory + "/files/" + name
        var bytes = [UInt8](repeating: 0, count: size)
        var state = UInt32(seed) &* 2_654_435_761 &+ 17
        for index in bytes.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func sha256(_ path: String) throws -> String {
        "sha256:" + (try FileDigest.sha256(ofFile: path).hex)
    }

    /// The publication of the seed's format with the given asset paths.
    func publication(_ paths: [String], tag: String = "v3.0.0-4321_2014-10-22T06-01-18Z", draft: Bool = false) -> ReleasePublication {
        ReleasePublication(
            repository: Self.repo, tag: tag, name: tag,
            body: "Build: 3.0.0 (4321)\nUploaded: 2014/10/22 15:01:18\n", targetCommitish: "master", draft: draft,
            assets: paths.map { PublishAsset(path: $0) }
        )
    }

    /// Every line logged so far.
    var allLogs: [String] { logs.all }
}

/// Collects values from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
