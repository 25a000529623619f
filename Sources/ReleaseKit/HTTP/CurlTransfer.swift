internal import CCurl
import Foundation
import ReleaseSupport
import Synchronization

/// One transfer: configures a ``CurlEasyHandle`` from an ``HTTPRequest`` and is the context of its callbacks.
///
/// `@unchecked Sendable` because the async caller hands it to a dedicated thread: every mutable property is
/// touched only by that thread while `curl_easy_perform` runs, and read by the caller only after the thread
/// resumed the continuation (which orders the accesses). The one field shared while the transfer runs,
/// `cancelled`, is an `Atomic`.
final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPRequest
    private let configuration: HTTPClient.Configuration
    private let progress: (@Sendable (Int64, Int64) -> Void)?
    private let cancelled = Atomic<Bool>(false)

    private var body: RequestBodyReader?
    private var responseBody = Data()
    private var overflowed = false
    private var headers: [HTTPHeader] = []
    private var lastReported: Int64 = -1
    /// Stall detection: bytes moved (both ways) at the last change, and when that was (monotonic ns).
    private var lastMoved: Int64 = -1
    private var lastMovedAt: UInt64 = 0
    private var stalled = false
    private let stallNanoseconds: UInt64

    init(
        request: HTTPRequest,
        configuration: HTTPClient.Configuration,
        progress: (@Sendable (Int64, Int64) -> Void)?
    ) {
        self.request = request
        self.configuration = configuration
        self.progress = progress
        let (seconds, attoseconds) = configuration.stallTimeout.components
        stallNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// Asks the running transfer to stop at libcurl's next progress callback.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the transfer on the calling thread (blocking) and returns the response.
    func perform() throws -> HTTPResponse {
        let url = request.redactedURL
        let easy = try CurlEasyHandle(method: request.method, redactedURL: url)
        let reader = try RequestBodyReader(request.body, digest: request.bodyDigest)
        body = reader
        let context = Unmanaged.passUnretained(self).toOpaque()

        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)  // a redirect must not carry the credential elsewhere
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = configuration.caCertificateFile ?? configuration.environment["SSL_CERT_FILE"], !caFile.isEmpty {
            try easy.set(CURLOPT_CAINFO, caFile)
        }
        // libcurl reads http_proxy/https_proxy/no_proxy itself; setting CURLOPT_NOPROXY replaces no_proxy,
        // so keep the user's list and add loopback, which a proxy can never reach.
        let noProxy = configuration.environment["no_proxy"] ?? configuration.environment["NO_PROXY"] ?? ""
        try easy.set(CURLOPT_NOPROXY, ([noProxy, "127.0.0.1,localhost,::1"].filter { !$0.isEmpty }).joined(separator: ","))
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, max(1, configuration.stallBytesPerSecond))
        try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.stallTimeout.components.seconds)))
        if let total = configuration.totalTimeout {
            try easy.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total))
        }
        try easy.set(CURLOPT_USERAGENT, configuration.userAgent)
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")  // whatever libcurl can decode

        try easy.set(CURLOPT_WRITEFUNCTION, callback: curlWriteCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: curlHeaderCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try easy.setProgress(curlProgressCallback)
        try easy.set(CURLOPT_XFERINFODATA, pointer: context)

        var headerLines: [String] = []
        let method = request.method.uppercased()
        if case .empty = request.body {
            switch method {
            case "GET": try easy.set(CURLOPT_HTTPGET, 1)
            case "HEAD": try easy.set(CURLOPT_NOBODY, 1)
            default: try easy.set(CURLOPT_CUSTOMREQUEST, method)
            }
            if method == "POST" || method == "PUT" || method == "PATCH" { headerLines.append("Content-Length: 0") }
        } else {
            // POST + READFUNCTION with an explicit size sends Content-Length, never chunked, and streams.
            // See https://curl.se/libcurl/c/CURLOPT_POSTFIELDSIZE_LARGE.html.
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: reader.length)
            try easy.set(CURLOPT_READFUNCTION, callback: curlReadCallback)
            try easy.set(CURLOPT_READDATA, pointer: context)
            try easy.set(CURLOPT_UPLOAD_BUFFERSIZE, configuration.uploadBufferSize)
            if method != "POST" { try easy.set(CURLOPT_CUSTOMREQUEST, method) }
            if request.header("Content-Type") == nil {
                headerLines.append("Content-Type: \(request.body.impliedContentType ?? "application/octet-stream")")
            }
        }
        for header in request.headers {
            headerLines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        if request.header("Expect") == nil { headerLines.append("Expect:") }
        if let authorization = request.authorization {
            guard let host = request.host, configuration.credentialHosts.contains(host) else {
                throw HTTPError.credentialNotAllowed(host: request.host ?? url)
            }
            headerLines.append("Authorization: \(authorization)")
        }
        try easy.setHeaders(headerLines)

        lastMovedAt = DispatchTime.now().uptimeNanoseconds
        do {
            try easy.perform()
        } catch let error as HTTPError {
            if isCancelled { throw CancellationError() }
            if stalled {
                throw HTTPError.transport(
                    method: request.method, url: url, code: 28,
                    message: "no data moved for \(DurationFormat.string(configuration.stallTimeout)) (stall timeout)"
                )
            }
            if overflowed { throw HTTPError.responseTooLarge(url: url, limit: request.maxResponseBytes) }
            if let failure = reader.failure { throw failure }
            throw error
        }
        return HTTPResponse(status: try easy.responseCode(), headers: headers, body: responseBody, bytesSent: try easy.bytesUploaded())
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    // MARK: Callbacks (called by libcurl on the transfer thread)

    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard let reader = body, let count = reader.read(into: UnsafeMutableRawPointer(buffer), capacity: capacity) else {
            return Int(CURL_READFUNC_ABORT)
        }
        return count
    }

    fileprivate func write(_ buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        if responseBody.count + count > request.maxResponseBytes {
            overflowed = true
            return 0  // makes libcurl stop with CURLE_WRITE_ERROR
        }
        responseBody.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    fileprivate func header(_ buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = []  // a new response (after 100 Continue): keep only the final one's headers
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            headers.append(HTTPHeader(name: name, value: value))
        }
        return count
    }

    /// libcurl's own low-speed check averages over a 5-second window, so a burst into the socket buffers
    /// hides a stall for seconds; this one watches for bytes moving at all. libcurl calls the progress
    /// callback about once a second even when nothing moves.
    fileprivate func progress(total: Int64, sent: Int64, received: Int64) -> Int32 {
        if isCancelled { return 1 }
        let moved = sent + received
        let now = DispatchTime.now().uptimeNanoseconds
        if moved != lastMoved {
            lastMoved = moved
            lastMovedAt = now
        } else if now - lastMovedAt >= stallNanoseconds {
            stalled = true
            return 1
        }
        if sent != lastReported, let progress, total > 0 || sent > 0 {
            lastReported = sent
            progress(sent, total)
        }
        return 0
    }
}

private func curlWriteCallback(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().write(buffer, count: size * count)
}

private func curlHeaderCallback(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().header(buffer, count: size * count)
}

private func curlReadCallback(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: size * count)
}

private func curlProgressCallback(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploadedNow: curl_off_t
) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .progress(total: Int64(uploadTotal), sent: Int64(uploadedNow), received: Int64(downloaded))
}
