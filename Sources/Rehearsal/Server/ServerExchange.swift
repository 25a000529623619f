import Foundation
import NIOCore
import NIOHTTP1
import ReleaseHTTP

/// One request and its answer on a ``LocalHTTPServer`` connection, as a ``LocalHTTPResponder`` sees it.
///
/// The body is read in pieces as the handler asks for it (``drain(limit:_:)``, ``collect(maxBytes:)``,
/// ``stream(into:limit:)``), never buffered whole by the server. The handler then answers
/// (``respond(status:headers:body:close:)``, ``respond(status:headers:file:length:close:)``) or drops the
/// connection (``reset()``, ``stall(for:)``, ``drop()``). Each of those records the request first, exactly
/// once, so the log is in the order clients saw their answers. Used by the connection's task only.
final class ServerExchange {
    /// `GET`, `POST`, … upper-case.
    let method: String
    /// Path and query as sent.
    let target: String
    /// The path without the query, percent-encoded as sent.
    let path: String
    /// Query items, percent-decoded (the last of a repeated name wins).
    let query: [String: String]
    /// Header fields as sent.
    let headers: [HTTPHeader]
    /// `Content-Length`, when sent.
    let contentLength: Int64?
    /// The server's base URL (`http://127.0.0.1:PORT`), for bodies that link back to it.
    let baseURL: String

    /// Body bytes read so far.
    private(set) var bodyBytes: Int64 = 0
    /// Lower-case hex SHA-256 of the body, for the record, when the handler hashed it.
    var bodySHA256: String?
    /// The body itself, for the record, when the handler kept it (small bodies only).
    var keptBody: [UInt8]?
    /// Whether the connection can carry another request once this one is done.
    private(set) var keepsConnection: Bool

    /// Whether the request was answered or its connection dropped (and so recorded).
    var isAnswered: Bool { recorded }

    private let connection: ServerConnection
    private let record: @Sendable (RecordedRequest) -> Void
    private var recorded = false

    init(head: HTTPRequestHead, connection: ServerConnection, baseURL: String, record: @escaping @Sendable (RecordedRequest) -> Void) {
        method = head.method.rawValue.uppercased()
        target = head.uri
        let parsed = URLComponents(string: "http://127.0.0.1" + head.uri)
        path = parsed?.percentEncodedPath ?? head.uri
        var query: [String: String] = [:]
        for item in parsed?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        self.query = query
        headers = head.headers.map { HTTPHeader(name: $0.name, value: $0.value) }
        contentLength = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
        keepsConnection = head.isKeepAlive
        self.baseURL = baseURL
        self.connection = connection
        self.record = record
    }

    /// The first value of header `name`, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    // MARK: The body

    /// The next piece of the body (at most `limit` bytes); nil at its end or when the client went away.
    func nextChunk(limit: Int64 = .max) async -> ByteBuffer? {
        let chunk = await connection.nextBodyChunk(limit: Int(min(limit, Int64(Int.max))))
        if let chunk { bodyBytes += Int64(chunk.readableBytes) }
        return chunk
    }

    /// Reads (at most `limit` more bytes of) the body, handing each piece to `sink`, and discards it; returns
    /// the bytes read by this call. Reading before answering lets a client that sends its whole body before
    /// it reads (as libcurl does) see the answer.
    @discardableResult
    func drain(limit: Int64 = .max, _ sink: (ByteBuffer) -> Void = { _ in }) async -> Int64 {
        var read: Int64 = 0
        while read < limit, let chunk = await nextChunk(limit: limit - read) {
            sink(chunk)
            read += Int64(chunk.readableBytes)
        }
        return read
    }

    /// The whole body, when it is complete and at most `maxBytes` long; nil otherwise (the rest is drained).
    func collect(maxBytes: Int) async -> [UInt8]? {
        var bytes: [UInt8] = []
        while let chunk = await nextChunk() {
            guard bytes.count + chunk.readableBytes <= maxBytes else {
                await drain()
                return nil
            }
            bytes += chunk.readableBytesView
        }
        if let contentLength, Int64(bytes.count) != contentLength { return nil }  // the client went away
        return bytes
    }

    /// Writes (at most `limit` bytes of) the body to `file` in batches of about 1 MiB; returns the bytes read
    /// and the first write error. After a write error the rest is still read (and dropped), so the client can
    /// be answered.
    func stream(into file: PooledFile, limit: Int64 = .max) async -> (received: Int64, error: (any Error)?) {
        let batchBytes = 1 << 20
        var batch: [ByteBuffer] = []
        var batched = 0
        var received: Int64 = 0
        var failure: (any Error)?
        func flush() async {
            defer { batch.removeAll(keepingCapacity: true); batched = 0 }
            guard failure == nil, !batch.isEmpty else { return }
            do { try await file.write(batch) } catch { failure = error }
        }
        while received < limit, let chunk = await nextChunk(limit: limit - received) {
            received += Int64(chunk.readableBytes)
            batch.append(chunk)
            batched += chunk.readableBytes
            if batched >= batchBytes { await flush() }
        }
        await flush()
        return (received, failure)
    }

    // MARK: Answers

    /// Sends `100 Continue`, for a client that waits for it before sending its body.
    func sendContinue() async {
        await connection.write([.head(HTTPResponseHead(version: .http1_1, status: .continue))])
    }

    /// Records the request, then answers it. `Content-Length` and `Connection` are added here.
    func respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], close: Bool = false) async {
        var buffer = ByteBuffer()
        buffer.writeBytes(body)
        let head = responseHead(status: status, headers: headers, length: Int64(body.count), close: close)
        finishRecord(status: status)
        var parts: [HTTPServerResponsePart] = [.head(head)]
        if !body.isEmpty { parts.append(.body(.byteBuffer(buffer))) }
        parts.append(.end(nil))
        await connection.write(parts)
    }

    /// Records the request, then answers it with `length` bytes of `file`, read in 1 MiB pieces as the client
    /// takes them.
    func respond(status: Int, headers: [(String, String)] = [], file: PooledFile, length: Int64, close: Bool = false) async {
        let head = responseHead(status: status, headers: headers, length: length, close: close)
        finishRecord(status: status)
        guard await connection.write([.head(head)]) else { return }
        var sent: Int64 = 0
        while sent < length, let chunk = await file.read(upTo: Int(min(Int64(1 << 20), length - sent))) {
            guard await connection.write([.body(.byteBuffer(chunk))]) else { return }
            sent += Int64(chunk.readableBytes)
        }
        guard sent == length else {
            await connection.close()  // the file shrank: the promised length cannot be kept
            return
        }
        await connection.write([.end(nil)])
    }

    private func responseHead(status: Int, headers: [(String, String)], length: Int64, close: Bool) -> HTTPResponseHead {
        if close { keepsConnection = false }
        var fields = HTTPHeaders()
        fields.add(name: "Content-Length", value: "\(length)")
        fields.add(name: "Connection", value: keepsConnection ? "keep-alive" : "close")
        for (name, value) in headers { fields.add(name: name, value: value) }
        return HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
    }

    /// Records the request (status 0), then closes the connection with an RST, as a dropped proxy would.
    func reset() async {
        finishRecord(status: 0)
        keepsConnection = false
        await connection.reset()
    }

    /// Records the request (status 0), stops reading for `seconds` (cut short when the server stops), then
    /// closes the connection. The client's bytes pile up in the socket buffers until it stalls too.
    func stall(for seconds: Double) async {
        finishRecord(status: 0)
        keepsConnection = false
        try? await Task.sleep(for: .seconds(seconds))
        await connection.close()
    }

    /// Records the request (status 0) and closes the connection without answering.
    func drop() async {
        finishRecord(status: 0)
        keepsConnection = false
        await connection.close()
    }

    /// Called by the server after the handler: a request nobody answered is recorded and its connection closed.
    func finish() async {
        guard !recorded else {
            if !connection.isOpen { keepsConnection = false }
            return
        }
        await drop()
    }

    private func finishRecord(status: Int) {
        guard !recorded else { return }
        recorded = true
        record(
            RecordedRequest(
                method: method, target: target, headers: headers, bodyBytes: bodyBytes, bodySHA256: bodySHA256, status: status,
                body: keptBody
            ))
    }
}
