import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The HTTP/1.1 server core every local stand-in shares: listens on 127.0.0.1, hands each request with its
/// streamed body to a ``LocalHTTPResponder``, records what it received, and stops cleanly.
///
/// SwiftNIO owns the sockets (and their Darwin/Glibc differences) and the HTTP parsing; each connection is
/// served by one task reading its parts through `NIOAsyncChannel`, which stops reading the socket while parts
/// wait unread, so bodies stream with TCP back-pressure and are never buffered whole. Faults act on the
/// connection itself (RST, stalled reads), which is why this is plain NIO rather than a framework on top.
///
/// Each connection's task runs on its channel's event loop (``EventLoopTaskExecutor``), not on Swift's
/// cooperative pool. The event loops and the blocking pool are NIO's process-wide singletons: tests start
/// hundreds of servers and none of them owns threads to shut down.
final class LocalHTTPServer: Sendable {
    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    private struct State {
        var responder: (any LocalHTTPResponder)?
        var listener: (any Channel)?
        var connections: [ObjectIdentifier: (channel: any Channel, task: Task<Void, Never>)] = [:]
        var requests: [RecordedRequest] = []
    }

    /// Names the server in errors (`local GitHub server`).
    let name: String
    private let state = Mutex(State())
    /// The bound port, readable without the lock (handlers build URLs while holding their own locks).
    private let boundPort = Atomic<Int>(0)
    /// The address bound by the last start.
    private let host = Mutex("127.0.0.1")

    init(name: String) {
        self.name = name
    }

    /// Binds `host`:`port` (127.0.0.1 and a free port by default), serves requests with `responder` until
    /// ``stop()``, and returns the base URL. The server keeps `responder` (and itself) alive until then. Returns
    /// the current URL when already running. `host` must be a loopback address (127.0.0.0/8): a stand-in never
    /// listens where another machine could reach it.
    /// - Throws: ``LocalServerError/listen(_:_:_:)`` when the port cannot be bound or `host` is not loopback.
    func start(_ responder: any LocalHTTPResponder, host: String = "127.0.0.1", port: UInt16 = 0) throws -> String {
        guard host.hasPrefix("127."), host.split(separator: ".").count == 4 else {
            throw LocalServerError.listen(name, "\(host):\(port)", "only loopback addresses (127.0.0.0/8) are served")
        }
        if let url = currentURL { return url }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Bigger reads than NIO's 64 KiB default: uploads of gigabytes come in fewer, larger pieces.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 64 << 10, maximum: 256 << 10))
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    accept(try Connection(wrappingChannelSynchronously: channel))
                }
            }
        let listener: any Channel
        do {
            // Blocks on a NIO thread for the bind only; start() is synchronous so fixtures can start servers in init.
            listener = try bootstrap.bind(host: host, port: Int(port)).wait()
        } catch {
            throw LocalServerError.listen(name, "\(host):\(port)", "\(error)")
        }
        let bound = listener.localAddress?.port ?? 0
        state.withLock {
            $0.responder = responder
            $0.listener = listener
        }
        boundPort.store(bound, ordering: .releasing)
        self.host.withLock { $0 = host }
        return "http://\(host):\(bound)"
    }

    /// Stops listening (the port refuses connections when this returns) and drops open connections,
    /// interrupting stalls. Idempotent.
    func stop() {
        let (listener, connections) = state.withLock { state in
            defer {
                state.responder = nil
                state.listener = nil
                state.connections = [:]
            }
            return (state.listener, Array(state.connections.values))
        }
        guard let listener else { return }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            try? listener.close().wait()
        } else {
            listener.close(promise: nil)  // waiting on an event loop thread would deadlock NIO
        }
        for connection in connections {
            connection.task.cancel()
            connection.channel.close(promise: nil)
        }
    }

    /// `http://127.0.0.1:PORT` while running, else nil.
    var currentURL: String? {
        state.withLock { $0.listener == nil } ? nil : url
    }

    /// The base URL (`http://127.0.0.1:PORT`) of the last start; empty before the first.
    var url: String {
        let port = boundPort.load(ordering: .acquiring)
        return port == 0 ? "" : "http://\(host.withLock { $0 }):\(port)"
    }

    /// Every request received so far, oldest first.
    var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Forgets the recorded requests.
    func clearRequests() { state.withLock { $0.requests.removeAll() } }

    // MARK: Connections

    /// Runs on the connection's event loop, before any of its reads.
    private func accept(_ connection: Connection) {
        let channel = connection.channel
        let id = ObjectIdentifier(channel)
        state.withLock { locked in
            guard let responder = locked.responder else {
                channel.close(promise: nil)
                return
            }
            let task = Task(executorPreference: EventLoopTaskExecutor(channel.eventLoop)) { [self] in
                await serve(connection, responder)
                _ = state.withLock { $0.connections.removeValue(forKey: id) }
            }
            locked.connections[id] = (channel, task)
        }
    }

    private func serve(_ connection: Connection, _ responder: any LocalHTTPResponder) async {
        try? await connection.executeThenClose { inbound, outbound in
            let reader = ServerConnection(channel: connection.channel, inbound: inbound, outbound: outbound)
            while !Task.isCancelled, let head = await reader.nextHead() {
                let exchange = ServerExchange(head: head, connection: reader, baseURL: url) { [self] request in
                    state.withLock { $0.requests.append(request) }
                }
                await responder.respond(to: exchange)
                await exchange.finish()
                guard exchange.keepsConnection, reader.isOpen else { return }
            }
        }
    }
}
