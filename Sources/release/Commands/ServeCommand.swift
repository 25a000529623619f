import ArgumentParser
import Dispatch
import Foundation
import Rehearsal
import ReleaseSupport
import Synchronization

/// `release github-server`: runs the local GitHub Releases server until SIGINT/SIGTERM (hidden; for
/// rehearsals and the upload benchmark).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "github-server",
        abstract: "Run a local GitHub Releases server on 127.0.0.1 until interrupted.",
        shouldDisplay: false
    )

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: UInt16 = 0

    @Option(help: "Folder that keeps releases and assets.")
    var storage: String

    @Option(help: "The token with push access (default $GITHUB_TOKEN).")
    var token: String?

    @Option(name: .customLong("read-only-token"), help: "A token that can read but not push (repeatable).")
    var readOnlyTokens: [String] = []

    @Flag(help: "Make published releases immutable.")
    var immutable = false

    func run() async throws {
        guard let token = token ?? ProcessInfo.processInfo.environment["GITHUB_TOKEN"], !token.isEmpty else {
            throw ValidationError("pass --token or set GITHUB_TOKEN")
        }
        let server = try LocalGitHubServer(
            configuration: .init(
                storageDirectory: storage, token: token, readOnlyTokens: Set(readOnlyTokens), port: port,
                immutableReleases: immutable
            ))
        let url = try server.start()
        Terminal.writeOutput(url + "\n")  // unbuffered: scripts read it at once
        await Self.waitForTermination()
        server.stop()
        Terminal.writeError("github-server: stopped\n")
    }

    /// Suspends until the first interrupt (SIGINT or SIGTERM) reaches ``Interrupts``.
    static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Mutex(false)
            Interrupts.shared.handle { _, _ in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume() }
            }
        }
    }
}
