import Foundation

/// `release run --rehearse`: a local GitHub server on 127.0.0.1 that every `github.release` step publishes to
/// instead of GitHub, kept on disk so a second rehearsal shows how a re-run converges.
///
/// The server accepts `$GITHUB_TOKEN`; when it is unset, the rehearsal generates one and puts it in the run's
/// environment, so `${secrets.GITHUB_TOKEN}` resolves on a laptop without a real token.
public final class Rehearsal: Sendable {
    public let server: LocalGitHubServer
    /// The server's address, for ``RunOptions/githubAPIOverride``.
    public let url: String
    public let storage: String
    /// The run's environment with the token the server accepts.
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

    /// Starts the server on a free loopback port.
    public init(storage: String, environment: [String: String]) throws {
        var environment = environment
        let token = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? "rehearsal-\(UUID().uuidString.lowercased())"
        environment["GITHUB_TOKEN"] = token
        server = try LocalGitHubServer(configuration: .init(storageDirectory: storage, token: token, port: 0))
        url = try server.start()
        self.storage = storage
        self.environment = environment
    }

    /// What the server holds now: each release with its assets, sizes and digests.
    public func summary() -> String {
        let lines = server.summary()
        var text = "rehearsal: local GitHub server \(url) (releases kept in \(storage))\n"
        text += lines.isEmpty ? "  nothing was published\n" : lines.map { "  \($0)\n" }.joined()
        return text
    }

    public func stop() {
        server.stop()
    }
}
