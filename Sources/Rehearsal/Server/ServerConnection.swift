import NIOCore
import NIOHTTP1

/// One accepted connection of a ``LocalHTTPServer``: the request parts NIO decoded, read one at a time, and
/// the writer for the answers.
///
/// Reading suspends instead of buffering: NIOAsyncChannel stops reading the socket while a handful of parts
/// wait unread, so a slow disk or a deliberate stall pushes back on the client through TCP, and a body is
/// never held whole. Used by the connection's task only.
final class ServerConnection {
    let channel: any Channel
    private var iterator: NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    /// Body bytes received past what the current reader asked for.
    private var pending: ByteBuffer?
    /// Whether the current request's body has been read to its end.
    private var bodyEnded = true
    /// False once the peer went away or the connection was closed on purpose.
    private(set) var isOpen = true

    init(
        channel: any Channel,
        inbound: NIOAsyncChannelInboundStream<HTTPServerRequestPart>,
        outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) {
        self.channel = channel
        self.iterator = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// The next request's head, skipping what the previous request's handler left of its body; nil when the
    /// connection is done.
    func nextHead() async -> HTTPRequestHead? {
        pending = nil
        while isOpen {
            switch await nextPart() {
            case .head(let head)?:
                bodyEnded = false
                return head
            case .body?, .end?:
                continue
            case nil:
                isOpen = false
            }
        }
        return nil
    }

    /// The next at most `limit` bytes of the current request's body; nil at its end or when the peer went away.
    func nextBodyChunk(limit: Int) async -> ByteBuffer? {
        guard limit > 0 else { return nil }
        if var buffer = pending {
            pending = nil
            return split(&buffer, limit: limit)
        }
        while !bodyEnded, isOpen {
            switch await nextPart() {
            case .body(var buffer)?:
                if buffer.readableBytes == 0 { continue }
                return split(&buffer, limit: limit)
            case .end?:
                bodyEnded = true
            case .head?, nil:
                // With NIO's pipelining assistance the next head only comes after this request's end.
                isOpen = false
            }
        }
        return nil
    }

    private func split(_ buffer: inout ByteBuffer, limit: Int) -> ByteBuffer {
        guard buffer.readableBytes > limit, let head = buffer.readSlice(length: limit) else { return buffer }
        pending = buffer
        return head
    }

    private func nextPart() async -> HTTPServerRequestPart? {
        do {
            return try await iterator.next()
        } catch {
            return nil  // the peer reset the connection, or sent what NIO cannot parse
        }
    }

    /// Writes and flushes `parts`; false when the peer is gone.
    @discardableResult
    func write(_ parts: [HTTPServerResponsePart]) async -> Bool {
        guard isOpen else { return false }
        do {
            try await outbound.write(contentsOf: parts)
            return true
        } catch {
            isOpen = false
            return false
        }
    }

    /// Closes with a FIN.
    func close() async {
        isOpen = false
        try? await channel.close()
    }

    /// Closes with an RST instead of a FIN (SO_LINGER 0), like a proxy dropping the connection.
    func reset() async {
        isOpen = false
        if let socket = channel as? any SocketOptionProvider {
            try? await socket.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }
}
