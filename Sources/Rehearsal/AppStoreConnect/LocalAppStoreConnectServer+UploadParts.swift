import Foundation
import ReleaseHTTP

/// The upload URLs (`PUT <base>/upload/<fileID>/<part>`): the stand-in for Apple's presigned storage URLs.
///
/// A part must carry exactly the headers its upload operation listed, exactly its length, and no
/// `Authorization` (the API token has no business there); its bytes are streamed to the file at the part's
/// offset, so memory stays flat whatever the size. Sending a part again rewrites the same bytes.
extension LocalAppStoreConnectServer {
    func uploadPart(_ exchange: ServerExchange) async {
        if exchange.header("Expect")?.equalsIgnoringASCIICase("100-continue") == true {
            await exchange.sendContinue()
        }
        let segments = exchange.path.split(separator: "/").map(String.init)
        let fileID = segments.count == 3 ? segments[1] : ""
        let part = segments.count == 3 ? Int(segments[2]) ?? 0 : 0
        let file = state.withLock { $0.snapshot.files.first { $0.id == fileID } }
        guard exchange.method == "PUT" else { return await refuse(exchange, 405, "upload URLs take PUT") }
        guard exchange.header("Authorization") == nil else {
            return await refuse(exchange, 400, "upload URLs take no Authorization header: the upload operation's headers authorise the part")
        }
        guard exchange.header("Transfer-Encoding") == nil, let length = exchange.contentLength else {
            return await refuse(exchange, 411, "a part needs a Content-Length", close: true)
        }
        guard let file, (1...max(1, file.partCount)).contains(part) else { return await refuse(exchange, 404, "no such upload part") }
        guard file.state == "AWAITING_UPLOAD" else { return await refuse(exchange, 403, "the file is \(file.state) and takes no more parts") }
        guard file.expiration > Date() else { return await refuse(exchange, 403, "the upload operation has expired") }
        for (name, value) in Self.partHeaders(file, part: part) where exchange.header(name) != value {
            return await refuse(exchange, 403, "header '\(name)' is missing or differs from the upload operation's requestHeaders")
        }
        let range = file.range(of: part)
        guard length == range.length else {
            return await refuse(exchange, 400, "part \(part) is \(range.length) bytes; the request sent Content-Length \(length)")
        }
        let fault = state.withLock { $0.faults.take { $0.matches(operation: nil, part: part, processing: false) } }
        switch fault?.action {
        case .reset(let after)?:
            count(await exchange.drain(limit: min(after, length)))
            record(exchange, operation: nil, body: nil, status: 0, response: nil)
            await exchange.reset()
            return
        case .status(let status)?:
            count(await exchange.drain())
            return await refuse(exchange, status, "injected failure")
        default:
            break
        }
        guard let writer = try? await PooledFile.update(uploadPath(file.id), at: range.offset) else {
            return await refuse(exchange, 500, "cannot store the part")
        }
        let (received, writeError) = await exchange.stream(into: writer, limit: length)
        let (_, digest) = await writer.close()
        count(received)
        guard received == length else {
            record(exchange, operation: nil, body: nil, status: 0, response: nil)
            await exchange.drop()  // the client went away mid-part: the part stays missing
            return
        }
        if writeError != nil { return await refuse(exchange, 500, "cannot store the part") }
        let stored = mutate { state -> Bool in
            guard let index = state.snapshot.files.firstIndex(where: { $0.id == file.id && $0.state == "AWAITING_UPLOAD" }) else { return false }
            state.snapshot.files[index].received.insert(part)
            state.snapshot.files[index].partDigests[part] = digest
            return true
        }
        guard stored else { return await refuse(exchange, 409, "the file was replaced or committed while the part was sent") }
        record(exchange, operation: nil, body: nil, status: 200, response: nil)
        await exchange.respond(status: 200, headers: [("ETag", "\"\(digest)\"")])
    }

    private func count(_ bytes: Int64) {
        state.withLock { $0.uploadedBytes += bytes }
    }

    /// A plain-text error on an upload URL (storage services do not speak JSON:API), after reading the body.
    private func refuse(_ exchange: ServerExchange, _ status: Int, _ message: String, close: Bool = false) async {
        if !close { count(await exchange.drain()) }
        let body = Data((message + "\n").utf8)
        record(exchange, operation: nil, body: nil, status: status, response: body)
        await exchange.respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(body), close: close)
    }
}
