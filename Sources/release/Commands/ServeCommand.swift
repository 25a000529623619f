import ArgumentParser
import Dispatch
import Foundation
import Rehearsal
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
        let waiter = SignalWaiter()
        let number = await withCheckedContinuation { continuation in
            waiter.start([SIGINT, SIGTERM]) { continuation.resume(returning: $0) }
        }
        withExtendedLifetime(waiter) {}
        return number
    }
}

/// Turns the first of some signals into one callback; keeps its dispatch sources alive until then.
private final class SignalWaiter: Sendable {
    private let state = Mutex<(fired: Bool, sources: [any DispatchSourceSignal])>((false, []))
    private let queue = DispatchQueue(label: "release.github-server.signals")

    func start(_ numbers: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in numbers {
            signal(number, SIG_IGN)  // delivered to the dispatch source instead of killing the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in
                let first = state.withLock { state -> Bool in
                    defer { state.fired = true }
                    return !state.fired
                }
                if first { handler(number) }
            }
            source.resume()
            sources.append(source)
        }
        state.withLock { $0.sources = sources }
    }
}
