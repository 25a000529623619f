import Foundation
import ReleaseKit

/// `release run --rehearse`: local stand-ins on 127.0.0.1 for the remote services steps talk to, so nothing
/// leaves the machine, and a summary of what they received.
///
/// - `github`: a ``LocalGitHubServer`` kept on disk, so a second rehearsal shows how a re-run converges;
/// - `http` and `slack`: a ``RecordingServer`` for plain HTTP endpoints and webhooks, which receives each
///   request with the original host as the first path segment (``ServiceEndpoints/url(_:for:)``).
///
/// ``endpoints`` maps each service to its stand-in's base URL. The GitHub server accepts
/// `$GITHUB_TOKEN`; when it is unset, the rehearsal generates one and puts it in the run's environment, so
/// `${secrets.GITHUB_TOKEN}` resolves on a laptop without a real token.
public final class Rehearsal: Sendable {
    /// The GitHub stand-in.
    public let github: LocalGitHubServer
    /// The stand-in for plain HTTP endpoints.
    public let http: RecordingServer
    /// Each service with a stand-in → the stand-in's base URL.
    public let endpoints: [Service: String]
    /// Where the GitHub stand-in keeps its releases.
    public let storage: String
    /// The run's environment with the token the GitHub stand-in accepts.
    public let environment: [String: String]

    /// Where rehearsals keep their releases by default: inside `.git/` at a repository's top, else `.release/`.
    public static func defaultStorage(in directory: String) -> String {
        var isDirectory: ObjCBool = false
        let git = (directory as NSString).appendingPathComponent(".git")
        if FileManager.default.fileExists(atPath: git, isDirectory: &isDirectory), isDirectory.boolValue {
            return (git as NSString).appendingPathComponent("release-rehearsal")
        }
        return (directory as NSString).appendingPathComponent(".release/rehearsal")
    }

    /// Starts every stand-in on a free loopback port.
    /// - Throws: ``LocalServerError`` when a server cannot start or the storage is unusable.
    public init(storage: String, environment: [String: String]) throws {
        var environment = environment
        let token = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? "rehearsal-\(UUID().uuidString.lowercased())"
        environment["GITHUB_TOKEN"] = token
        github = try LocalGitHubServer(configuration: .init(storageDirectory: storage, token: token, port: 0))
        http = RecordingServer()
        do {
            let recording = try http.start()
            endpoints = [.github: try github.start(), .http: recording, .slack: recording]
        } catch {
            github.stop()
            http.stop()
            throw error
        }
        self.storage = storage
        self.environment = environment
    }

    /// What the stand-ins hold now: each release with its assets, sizes and digests, then every request the
    /// HTTP endpoint received.
    public func summary() -> String {
        let releases = github.summary()
        var text = "rehearsal: local GitHub server \(github.url) (releases kept in \(storage))\n"
        text += releases.isEmpty ? "  nothing was published\n" : releases.map { "  \($0)\n" }.joined()
        let requests = http.summary()
        text += "rehearsal: local HTTP endpoint \(http.url)\n"
        text += requests.isEmpty ? "  nothing was received\n" : requests.map { "  \($0)\n" }.joined()
        return text
    }

    /// The summary as JSON values for the `rehearsal_finished` event of `--log-format json`: each stand-in's URL and
    /// the lines ``summary()`` shows for it.
    public func summaryFields() -> [String: Any] {
        [
            "github": ["url": github.url, "storage": storage, "releases": github.summary()] as [String: Any],
            "http": ["url": http.url, "requests": http.summary()] as [String: Any],
        ]
    }

    /// Stops every stand-in.
    public func stop() {
        github.stop()
        http.stop()
    }
}
