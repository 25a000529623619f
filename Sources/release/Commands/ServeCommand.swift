import ArgumentParser
import Dispatch
import Foundation
import ReleaseKit

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
        let server = try LocalGitHubServer(configuration: .init(
            storageDirectory: storage, token: token, readOnlyTokens: Set(readOnlyTokens), port: port,
            immutableReleases: immutable
        ))
        let url = try server.start()
        FileHandle.standardOutput.write(Data((url + "\n").utf8))  // unbuffered: scripts read it at once
        let signal = await Self.waitForTermination()
        server.stop()
        FileHandle.standardError.write(Data("github-server: stopped (signal \(signal))\n".utf8))
    }

    /// Suspends until SIGINT or SIGTERM arrives; returns the signal number.
    static func waitForTermination() async -> Int32 {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "release.github-server.signals")
            let fired = ManagedFlag()
            var sources: [DispatchSourceSignal] = []
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    guard fired.set() else { return }
                    continuation.resume(returning: number)
                }
                source.resume()
                sources.append(source)
            }
            SignalSources.keep(sources)
        }
    }
}

/// Keeps the signal sources alive for the process's lifetime.
private enum SignalSources {
    nonisolated(unsafe) static var retained: [DispatchSourceSignal] = []
    static func keep(_ sources: [DispatchSourceSignal]) { retained = sources }
}

/// A flag that can be set once, from any thread.
private final class ManagedFlag: @unchecked Sendable {
    // Only touched on the serial signal queue.
    private var value = false
    func set() -> Bool {
        if value { return false }
        value = true
        return true
    }
}
