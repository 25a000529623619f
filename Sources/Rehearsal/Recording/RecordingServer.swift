import Foundation
import ReleaseSupport

/// A local HTTP endpoint that accepts any method on any path, records what it received, and answers with a
/// fixed status: the stand-in for plain HTTP endpoints (`http.upload`) and webhooks during a rehearsal.
///
/// Each request's body is read as it arrives and counted and hashed (SHA-256); only a small one (a webhook's JSON, at
/// most ``keptBodyLimit`` bytes) is also kept, so an upload of any size costs no memory. ``requests`` lists method,
/// path, query, headers, body size, digest and the small bodies.
///
/// ```swift
/// let server = RecordingServer()
/// let url = try server.start()          // "http://127.0.0.1:54321"
/// defer { server.stop() }
/// // … POST url + "/hooks/x" …
/// server.requests.first?.bodySHA256
/// ```
package final class RecordingServer: Sendable {
    /// How the server answers.
    package struct Configuration: Sendable {
        /// The status every request gets.
        package var status: Int
        /// The body every answer carries.
        package var body: String
        /// The answer's `Content-Type`.
        package var contentType: String
        /// The port to listen on; 0 picks a free one.
        package var port: UInt16
        /// The loopback address to listen on (127.0.0.0/8). Only 127.0.0.1 is served on every system: macOS
        /// configures no other loopback address unless one is aliased on lo0.
        package var host: String

        package init(
            status: Int = 200, body: String = "{}", contentType: String = "application/json", port: UInt16 = 0,
            host: String = "127.0.0.1"
        ) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.port = port
            self.host = host
        }
    }

    /// The largest body kept in ``RecordedRequest/body``.
    package static let keptBodyLimit = 64 * 1024

    package let configuration: Configuration
    private let http = LocalHTTPServer(name: "local HTTP endpoint")

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    deinit { stop() }

    /// Binds 127.0.0.1, starts serving, and returns the base URL (`http://127.0.0.1:PORT`).
    /// - Throws: ``LocalServerError/listen(_:_:_:)`` when the port cannot be bound.
    @discardableResult
    package func start() throws -> String {
        try http.start(self, host: configuration.host, port: configuration.port)
    }

    /// Stops listening and drops open connections.
    package func stop() {
        http.stop()
    }

    /// The base URL of the last start; empty before ``start()``.
    package var url: String { http.url }

    /// Every request received so far, oldest first.
    package var requests: [RecordedRequest] { http.requests }

    /// Forgets the recorded requests.
    package func clearRequests() { http.clearRequests() }

    /// One line per request, oldest first: `POST /hooks/x?y=1  1234 bytes  200  sha256:…`.
    package func summary() -> [String] {
        requests.map { request in
            let answer = request.status == 0 ? "no answer" : "\(request.status)"
            let digest = request.bodySHA256.map { "  sha256:\($0)" } ?? ""
            return "\(request.method) \(request.target)  \(request.bodyBytes) bytes  \(answer)\(digest)"
        }
    }
}

extension RecordingServer: LocalHTTPResponder {
    func respond(to exchange: ServerExchange) async {
        // Hashed here, chunk by chunk, as the body arrives; nothing touches the disk.
        let digest = StreamingDigest()
        var kept: [UInt8]? = []
        await exchange.drain { chunk in
            chunk.withUnsafeReadableBytes { digest.update($0) }
            if let bytes = kept {
                kept = bytes.count + chunk.readableBytes <= Self.keptBodyLimit ? bytes + chunk.readableBytesView : nil
            }
        }
        exchange.bodySHA256 = digest.hex
        exchange.keptBody = kept
        if let length = exchange.contentLength, exchange.bodyBytes != length {
            await exchange.drop()  // the client went away mid-body
            return
        }
        await exchange.respond(
            status: configuration.status, headers: [("Content-Type", configuration.contentType)],
            body: Array(configuration.body.utf8)
        )
    }
}
