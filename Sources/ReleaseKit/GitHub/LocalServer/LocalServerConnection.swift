import Foundation

/// One accepted TCP connection of the local GitHub server: buffered reads of HTTP/1.1 request heads and
/// bodies, and plain writes.
///
/// Used by one thread only (the connection's). Closes its socket in `deinit`.
final class LocalServerConnection {
    /// A parsed request line and header block.
    struct Head {
        var method: String
        var target: String
        var headers: [HTTPHeader]

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    enum ReadError: Error {
        case closed
        case malformed
    }

    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0
    private var closed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        _ = Foundation.close(descriptor)
    }

    /// Closes with an RST instead of a FIN (SO_LINGER 0), like a proxy dropping the connection.
    func reset() {
        var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
        close()
    }

    private func fill() throws -> Int {
        if start == end { start = 0; end = 0 }
        if end == buffer.count {
            guard start > 0 else { throw ReadError.malformed }
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            end -= start
            start = 0
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                recv(descriptor, raw.baseAddress! + end, raw.count - end, 0)
            }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { throw ReadError.closed }
            end += count
            return count
        }
    }

    /// Reads the next request head; nil when the peer closed the connection between requests.
    func readHead() throws -> Head? {
        var searchFrom = start
        while true {
            if let headEnd = findTerminator(from: searchFrom) {
                let text = String(decoding: buffer[start..<headEnd], as: UTF8.self)
                start = headEnd + 4
                return try parse(text)
            }
            searchFrom = max(start, end - 3)
            do {
                _ = try fill()
            } catch ReadError.closed {
                if start == end { return nil }
                throw ReadError.closed
            }
        }
    }

    private func findTerminator(from: Int) -> Int? {
        var index = max(from, start)
        while index + 3 < end {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func parse(_ text: String) throws -> Head {
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { throw ReadError.malformed }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { throw ReadError.malformed }
        var headers: [HTTPHeader] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw ReadError.malformed }
            headers.append(HTTPHeader(
                name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            ))
        }
        return Head(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    /// Reads up to `length` body bytes, handing them to `sink` in chunks; returns how many arrived (fewer
    /// when the peer went away).
    func readBody(length: Int64, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var received: Int64 = 0
        while received < length {
            if start == end {
                do {
                    _ = try fill()
                } catch ReadError.closed {
                    return received
                }
            }
            let count = Int(min(Int64(end - start), length - received))
            try buffer.withUnsafeBytes { raw in
                try sink(UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)]))
            }
            start += count
            received += Int64(count)
        }
        return received
    }

    /// Reads and returns a small body in full.
    func readBody(length: Int64) throws -> Data {
        var data = Data()
        _ = try readBody(length: length) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes all of `data`; false when the peer is gone.
    @discardableResult
    func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let count = send(descriptor, pointer, remaining, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                pointer += count
                remaining -= count
            }
            return true
        }
    }
}
