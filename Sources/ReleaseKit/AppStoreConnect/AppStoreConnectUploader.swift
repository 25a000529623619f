import Foundation
import ReleaseHTTP
import ReleaseSupport
import Synchronization

/// Uploads an `.ipa` through App Store Connect's Build Upload API so that running it again converges:
///
/// 1. find the app by bundle id;
/// 2. look for uploads of the same version, build and platform: one whose committed file has this `.ipa`'s SHA-256
///    is this upload, done before (nothing is sent); one still `AWAITING_UPLOAD` is reused; one for a different file,
///    or a build with the number made another way, means the number is taken (the error names the next free one);
/// 3. create the upload (`POST /v1/buildUploads`) and reserve the file (`POST /v1/buildUploadFiles`), which
///    answers with upload operations: byte ranges, URLs and the headers to send;
/// 4. send every range streamed from disk, a few at once, with exactly Apple's headers and no token; each part is
///    retried on its own by the HTTP client;
/// 5. commit (`PATCH … uploaded: true` with the file's SHA-256);
/// 6. poll the upload until `COMPLETE` or `FAILED`, and optionally the build until `VALID`.
package struct AppStoreConnectUploader: AppStoreConnectWorker {
    /// What to upload and how long to wait.
    package struct Request: Sendable {
        package var ipa: String
        package var bundleID: String
        package var version: String
        package var build: String
        package var platform: ApplePlatform
        package var concurrency: Int
        package var wait: Wait
        package var pollInterval: Duration
        package var waitTimeout: Double
        /// How long this run may wait (seconds) before the step ends waiting instead (``AppStoreConnectError/stillWaiting(what:seconds:lastState:)``);
        /// nil waits until done (or `waitTimeout`, a failure).
        package var waitBudget: Double? = nil
        /// What to do when App Store Connect already has this version and build from another file.
        package var existing: Existing
        /// AppStoreInfo.plist (from `xcode.export`), attached as the upload's `ASSET_DESCRIPTION` file before the .ipa is
        /// committed; Apple's upload tools need it off macOS.
        package var assetDescription: String?

        package init(
            ipa: String, bundleID: String, version: String, build: String, platform: ApplePlatform, concurrency: Int = 4,
            wait: Wait = .uploaded, pollInterval: Duration = .seconds(15), waitTimeout: Double = 3600, existing: Existing = .fail,
            assetDescription: String? = nil
        ) {
            self.assetDescription = assetDescription
            self.ipa = ipa
            self.bundleID = bundleID
            self.version = version
            self.build = build
            self.platform = platform
            self.concurrency = concurrency
            self.wait = wait
            self.pollInterval = pollInterval
            self.waitTimeout = waitTimeout
            self.existing = existing
        }
    }

    /// When App Store Connect already has the version and build number, uploaded from another file (an earlier run
    /// that archived the same commit, another machine, Xcode's Organizer).
    package enum Existing: String, Sendable, CaseIterable {
        /// Fail, naming the next free build number: the build number is taken.
        case fail
        /// Use the build App Store Connect has: nothing is sent. For pipelines whose bump keeps a release's build
        /// number only while the checkout is that release's commit (`version.bump`'s `converge`), so the same number
        /// means the same sources.
        case keep
    }

    /// How far to follow the upload after the bytes are committed.
    package enum Wait: String, Sendable, CaseIterable {
        /// Return once the file is committed.
        case none
        /// Until the upload is `COMPLETE` (Apple has the build).
        case uploaded
        /// Until the build is `VALID` (processed, ready for TestFlight).
        case processed
    }

    /// What happened.
    package struct Result: Sendable, Equatable {
        package var uploadID: String
        package var buildID: String?
        /// Bytes of the `.ipa` sent by this run (0 when it was already there).
        package var bytesSent: Int64
        /// The upload's last state seen (`AWAITING_UPLOAD` after commit with `wait: none`, else `COMPLETE`).
        package var state: String
        /// The build's processing state, when it was looked at.
        package var processingState: String?
        /// Whether the same file had been uploaded before.
        package var alreadyUploaded: Bool
        package var warnings: [StateDetail]
    }

    package let session: AppStoreConnectSession
    /// Bytes sent and the file's size, as the parts go.
    let progress: @Sendable (Int64, Int64) -> Void

    package init(session: AppStoreConnectSession, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) {
        self.session = session
        self.progress = progress
    }

    var catalog: AppStoreConnectCatalog { AppStoreConnectCatalog(client: client) }

    // MARK: Upload

    package func upload(_ request: Request) async throws -> Result {
        // The SHA-256 is read on a thread of its own while the API calls and the parts go on; it is awaited only
        // where it is needed: to recognise an earlier upload of this file, and for the commit.
        let size = try Self.size(of: request.ipa)
        let hashing = Task { try await FileDigest.sha256(ofFile: request.ipa).hex }
        defer { hashing.cancel() }
        let fileName = (request.ipa as NSString).lastPathComponent
        let what = "\(request.bundleID) \(request.version) (\(request.build))"
        let app = try await catalog.app(bundleID: request.bundleID)

        // Earlier uploads of this version and build.
        let earlier = try await uploads(appID: app.id, request)
        var reusable: (upload: Resource<BuildUploadAttributes>, file: Resource<BuildUploadFileAttributes>?)?
        for upload in earlier where upload.attributes?.state?.state != "FAILED" {
            let files = try await client.resources(BuildUploadFileAttributes.self, "/v1/buildUploads/\(upload.id)/buildUploadFiles")
            let asset = files.first { ($0.attributes?.assetType ?? "ASSET") == "ASSET" }
            let state = upload.attributes?.state?.state ?? "AWAITING_UPLOAD"
            if let checksum = asset?.attributes?.sourceFileChecksums?.file?.hash {
                if checksum.equalsIgnoringASCIICase(try await hashing.value) {
                    log("\(what) was uploaded before (upload \(upload.id), \(state)): nothing to send")
                    return try await follow(upload, request: request, bytesSent: 0, alreadyUploaded: true)
                }
                if state != "AWAITING_UPLOAD", request.existing == .keep {
                    log("\(what) is in App Store Connect already (upload \(upload.id), \(state), from another file): kept, nothing to send (existing: keep)")
                    return try await follow(upload, request: request, bytesSent: 0, alreadyUploaded: true)
                }
                if state != "AWAITING_UPLOAD" {
                    throw AppStoreConnectError.buildTaken(version: request.version, build: request.build, next: try await nextBuild(appID: app.id, request))
                }
            }
            if state == "AWAITING_UPLOAD", reusable == nil,
                asset == nil || (asset?.attributes?.fileName == fileName && asset?.attributes?.fileSize == size)
            {
                reusable = (upload, asset)
            }
        }
        let existing =
            reusable == nil
            ? try await catalog.builds(appID: app.id, version: request.version, build: request.build, platform: request.platform) : []
        if let build = existing.first, request.existing == .keep {
            log("\(what) is in App Store Connect already (build \(build.id)): kept, nothing to send (existing: keep)")
            var result = Result(uploadID: "", buildID: build.id, bytesSent: 0, state: "COMPLETE", processingState: nil, alreadyUploaded: true, warnings: [])
            if request.wait == .processed {
                result.processingState = try await waitUntilProcessed(
                    buildID: build.id, version: request.version, build: request.build,
                    pollInterval: request.pollInterval, timeout: request.waitTimeout, budget: request.waitBudget)
            }
            return result
        }
        if !existing.isEmpty {
            throw AppStoreConnectError.buildTaken(version: request.version, build: request.build, next: try await nextBuild(appID: app.id, request))
        }

        var upload: Resource<BuildUploadAttributes>
        var file: Resource<BuildUploadFileAttributes>?
        if let reusable {
            (upload, file) = (reusable.upload, reusable.file)
            log("reusing upload \(upload.id) of \(what), still awaiting its file")
        } else {
            upload = try await createUpload(appID: app.id, request)
            log("created upload \(upload.id) for \(what)")
        }
        if let reserved = file, Self.hasExpired(reserved.attributes?.uploadOperations ?? [], now: now()) {
            // Presigned URLs do not last: start over with a new upload rather than send to dead links.
            log("the upload operations of upload \(upload.id) have expired: deleting it and starting again")
            // With an empty document, as this request has always been sent.
            _ = try await client.send("DELETE", "/v1/buildUploads/\(upload.id)", json: Data("{}".utf8))
            upload = try await createUpload(appID: app.id, request)
            file = nil
        }
        if file == nil {
            file = try await client.write(
                "POST", "/v1/buildUploadFiles",
                Components.Schemas.BuildUploadFileCreateRequest(
                    data: .init(
                        _type: .buildUploadFiles,
                        attributes: .init(assetType: .asset, fileName: fileName, fileSize: size, uti: .com_apple_ipa),
                        relationships: .init(buildUpload: .init(data: .init(_type: .buildUploads, id: upload.id))))),
                as: BuildUploadFileAttributes.self)
        }
        guard let reserved = file else { throw AppStoreConnectError.badUploadOperation("no file was reserved") }

        var sent: Int64 = 0
        let delivery = reserved.attributes?.assetDeliveryState?.state ?? "AWAITING_UPLOAD"
        if delivery == "AWAITING_UPLOAD", let description = request.assetDescription {
            _ = try await attachDescription(description, to: upload)  // bytes_sent counts the .ipa alone
        }
        if delivery == "AWAITING_UPLOAD" {
            var operations = reserved.attributes?.uploadOperations ?? []
            if operations.isEmpty {
                operations = try await client.resource(BuildUploadFileAttributes.self, "/v1/buildUploadFiles/\(reserved.id)").attributes?.uploadOperations ?? []
            }
            try Self.check(operations, size: size)
            let record = UploadPartRecord(ipa: request.ipa, fileID: reserved.id, size: size)
            sent = try await send(operations, file: request.ipa, size: size, concurrency: request.concurrency, record: record)
            let sha256 = try await hashing.value
            let commit = Self.commit(fileID: reserved.id, sha256: sha256)
            do {
                _ = try await client.write("PATCH", "/v1/buildUploadFiles/\(reserved.id)", commit, as: BuildUploadFileAttributes.self)
            } catch AppStoreConnectError.api(_, _, 409, let errors) where !record.sent.isEmpty {
                // Parts our record counted as sent are missing at App Store Connect: send them all, once more.
                for error in errors { log("App Store Connect: \(error.line)") }
                log("sending every part again")
                record.reset()
                sent += try await send(operations, file: request.ipa, size: size, concurrency: request.concurrency, record: record)
                _ = try await client.write("PATCH", "/v1/buildUploadFiles/\(reserved.id)", commit, as: BuildUploadFileAttributes.self)
            }
            record.remove()
            log("committed \(fileName) (SHA-256 \(sha256))")
        } else {
            log("the file of upload \(upload.id) is already \(delivery): nothing to send")
        }
        return try await follow(upload, request: request, bytesSent: sent, alreadyUploaded: sent == 0)
    }

    /// Sends AppStoreInfo.plist as the upload's `ASSET_DESCRIPTION` file, unless App Store Connect has it already
    /// (a re-run sends nothing); returns the bytes sent.
    func attachDescription(_ path: String, to upload: Resource<BuildUploadAttributes>) async throws -> Int64 {
        let files = try await client.resources(BuildUploadFileAttributes.self, "/v1/buildUploads/\(upload.id)/buildUploadFiles")
        var file = files.first { $0.attributes?.assetType == "ASSET_DESCRIPTION" }
        if let state = file?.attributes?.assetDeliveryState?.state, state != "AWAITING_UPLOAD" {
            log("the asset description of upload \(upload.id) is already \(state): nothing to send")
            return 0
        }
        let size = try Self.size(of: path)
        let sha256 = try await FileDigest.sha256(ofFile: path).hex
        if file == nil {
            let binary = (FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 6) }).map { $0 == Data("bplist".utf8) } ?? false
            file = try await client.write(
                "POST", "/v1/buildUploadFiles",
                Components.Schemas.BuildUploadFileCreateRequest(
                    data: .init(
                        _type: .buildUploadFiles,
                        attributes: .init(
                            assetType: .assetDescription, fileName: (path as NSString).lastPathComponent, fileSize: size,
                            uti: binary ? .com_apple_binaryPropertyList : .com_apple_xmlPropertyList),
                        relationships: .init(buildUpload: .init(data: .init(_type: .buildUploads, id: upload.id))))),
                as: BuildUploadFileAttributes.self)
        }
        guard let reserved = file else { throw AppStoreConnectError.badUploadOperation("no asset description file was reserved") }
        var operations = reserved.attributes?.uploadOperations ?? []
        if operations.isEmpty {
            operations = try await client.resource(BuildUploadFileAttributes.self, "/v1/buildUploadFiles/\(reserved.id)").attributes?.uploadOperations ?? []
        }
        try Self.check(operations, size: size)
        let record = UploadPartRecord(ipa: path, fileID: reserved.id, size: size)
        let sent = try await send(operations, file: path, size: size, concurrency: 1, record: record)
        _ = try await client.write(
            "PATCH", "/v1/buildUploadFiles/\(reserved.id)", Self.commit(fileID: reserved.id, sha256: sha256), as: BuildUploadFileAttributes.self)
        record.remove()
        log("attached \((path as NSString).lastPathComponent) as the asset description")
        return sent
    }

    /// The commit of a file whose bytes are all sent: `uploaded`, with the SHA-256 of the whole file.
    static func commit(fileID: String, sha256: String) -> Components.Schemas.BuildUploadFileUpdateRequest {
        Components.Schemas.BuildUploadFileUpdateRequest(
            data: .init(
                _type: .buildUploadFiles, id: fileID,
                attributes: .init(sourceFileChecksums: .init(file: .init(hash: sha256, algorithm: .sha256)), uploaded: true)))
    }

    /// The size of the file at `path`.
    static func size(of path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FileDigest.Failure.cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        return Int64(info.st_size)
    }

    /// The uploads App Store Connect has for the request's version, build and platform.
    func uploads(appID: String, _ request: Request) async throws -> [Resource<BuildUploadAttributes>] {
        try await catalog.uploads(appID: appID, version: request.version, build: request.build, platform: request.platform)
    }

    func createUpload(appID: String, _ request: Request) async throws -> Resource<BuildUploadAttributes> {
        do {
            let platform = request.platform.contractPlatform
            return try await client.write(
                "POST", "/v1/buildUploads",
                Components.Schemas.BuildUploadCreateRequest(
                    data: .init(
                        _type: .buildUploads,
                        attributes: .init(cfBundleShortVersionString: request.version, cfBundleVersion: request.build, platform: platform),
                        relationships: .init(app: .init(data: .init(_type: .apps, id: appID))))),
                as: BuildUploadAttributes.self)
        } catch AppStoreConnectError.api(let method, let path, 409, let errors) {
            // A create that landed despite an error answer, then retried, is ours: take it.
            if let landed = try await uploads(appID: appID, request).first(where: { $0.attributes?.state?.state == "AWAITING_UPLOAD" }) {
                return landed
            }
            // A conflict means the build number is taken, unless Apple names something else wrong with the entity
            // (`ENTITY_ERROR.ATTRIBUTE.INVALID` for a CFBundleVersion of four groups, say): that is Apple's own
            // words, not a reason to suggest another number.
            let refused = errors.filter { $0.code.hasPrefix("ENTITY_ERROR") && !$0.code.hasSuffix(".DUPLICATE") }
            guard refused.isEmpty else {
                throw AppStoreConnectError.api(method: method, path: path, status: 409, errors: errors)
            }
            for error in errors { log("App Store Connect: \(error.line)") }
            throw AppStoreConnectError.buildTaken(version: request.version, build: request.build, next: try await nextBuild(appID: appID, request))
        }
    }

    func nextBuild(appID: String, _ request: Request) async throws -> String {
        try await catalog.buildNumbers(appID: appID, platform: request.platform).next
    }

    static func hasExpired(_ operations: [UploadOperation], now: Date) -> Bool {
        operations.contains { operation in
            guard let text = operation.expiration, let date = Timestamp.parseISO8601(text) else { return false }
            return date <= now.addingTimeInterval(60)
        }
    }

    /// The operations must cover the file exactly once, each with a URL.
    static func check(_ operations: [UploadOperation], size: Int64) throws {
        guard !operations.isEmpty else { throw AppStoreConnectError.badUploadOperation("the reserved file has no upload operations") }
        var covered: Int64 = 0
        for operation in operations.sorted(by: { ($0.offset ?? 0) < ($1.offset ?? 0) }) {
            let part = operation.partNumber.map { "part \($0)" } ?? "a part"
            guard let url = operation.url, URLComponents(string: url)?.hostWithoutIDNA != nil else {
                throw AppStoreConnectError.badUploadOperation("\(part) has no URL")
            }
            guard let offset = operation.offset, let length = operation.length, length > 0 else {
                throw AppStoreConnectError.badUploadOperation("\(part) has no byte range")
            }
            guard offset == covered, offset + length <= size else {
                throw AppStoreConnectError.badUploadOperation("\(part) covers bytes \(offset)..<\(offset + length), expected to start at \(covered) within \(size)")
            }
            covered += length
        }
        guard covered == size else {
            throw AppStoreConnectError.badUploadOperation("the parts cover \(covered) of the file's \(size) bytes")
        }
    }

    // MARK: Parts

    /// Sends every part the record does not have, at most `concurrency` at once, recording each as it is done, and
    /// returns the bytes sent.
    func send(_ operations: [UploadOperation], file: String, size: Int64, concurrency: Int, record: UploadPartRecord) async throws -> Int64 {
        let done = record.sent
        let missing = operations.enumerated().filter { !done.contains($0.element.partNumber ?? $0.offset + 1) }
        let skipped = operations.count - missing.count
        let remaining = missing.reduce(Int64(0)) { $0 + ($1.element.length ?? 0) }
        log(
            "sending \(ByteFormat.size(remaining)) in \(missing.count) part\(missing.count == 1 ? "" : "s"), \(min(concurrency, max(1, missing.count))) at a time"
                + (skipped > 0 ? " (\(skipped) of \(operations.count) sent by an earlier run)" : ""))
        let sentPerPart = PartCounts()
        let report = progress
        let http = client.http
        let already = size - remaining
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = missing.makeIterator()
            var running = 0
            while true {
                while running < max(1, concurrency), let (index, operation) = pending.next() {
                    group.addTask {
                        try await Self.sendPart(operation, index: index, file: file, http: http) { done in
                            report(already + sentPerPart.set(index, done), size)
                        }
                        record.add(operation.partNumber ?? index + 1)
                    }
                    running += 1
                }
                guard running > 0 else { break }
                try await group.next()
                running -= 1
            }
        }
        return sentPerPart.total
    }

    /// Bytes sent per part, from every part's task; the sum is the upload's progress.
    final class PartCounts: Sendable {
        private let counts = Mutex<[Int: Int64]>([:])

        /// Records part `index` at `bytes` and returns the sum over all parts.
        func set(_ index: Int, _ bytes: Int64) -> Int64 {
            counts.withLock { counts in
                counts[index] = bytes
                return counts.values.reduce(0, +)
            }
        }

        var total: Int64 { counts.withLock { $0.values.reduce(0, +) } }
    }

    /// Sends one part: its byte range streamed from the file, with exactly the operation's headers and no token.
    static func sendPart(
        _ operation: UploadOperation, index: Int, file: String, http: HTTPClient,
        progress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let headers: [(name: String, value: String)] = (operation.requestHeaders ?? []).compactMap { header in
            guard let name = header.name else { return nil }
            return (name, header.value ?? "")
        }
        let request = HTTPRequest(
            method: operation.method ?? "PUT", url: operation.url ?? "", headers: headers,
            body: .fileRange(path: file, offset: operation.offset ?? 0, length: operation.length ?? 0))
        let response = try await http.send(request) { done, _ in progress(done) }
        guard response.isSuccess else {
            let host = URLComponents(string: request.url)?.hostWithoutIDNA ?? "?"
            throw AppStoreConnectError.api(
                method: request.method, path: "upload part \(operation.partNumber ?? index + 1) at \(host)",
                status: response.status, errors: AppStoreConnectError.entries(in: response.body) ?? [])
        }
        progress(operation.length ?? 0)
    }

    // MARK: Waiting

    /// Polls the upload (and the build) as far as `request.wait` asks.
    func follow(_ upload: Resource<BuildUploadAttributes>, request: Request, bytesSent: Int64, alreadyUploaded: Bool) async throws -> Result {
        var result = Result(
            uploadID: upload.id, buildID: upload.related["build"], bytesSent: bytesSent,
            state: upload.attributes?.state?.state ?? "AWAITING_UPLOAD", processingState: nil,
            alreadyUploaded: alreadyUploaded, warnings: upload.attributes?.state?.warnings ?? [])
        guard request.wait != .none else { return result }
        let what = "the upload of \(request.version) (\(request.build))"
        let started = now()
        let current = try await poll(what, interval: request.pollInterval, timeout: request.waitTimeout, budget: request.waitBudget).until(
            Resource<BuildUploadAttributes>.self, since: started
        ) {
            let current = try await client.resource(BuildUploadAttributes.self, "/v1/buildUploads/\(upload.id)")
            let state = current.attributes?.state?.state ?? "AWAITING_UPLOAD"
            if state == "FAILED" {
                throw AppStoreConnectError.processingFailed(what: what, state: state, errors: current.attributes?.state?.errors ?? [])
            }
            return state == "COMPLETE" ? .done(current) : .waiting(state: state)
        }
        result.state = "COMPLETE"
        result.warnings = current.attributes?.state?.warnings ?? []
        for warning in result.warnings { log("warning: \(warning.line)") }
        for info in current.attributes?.state?.infos ?? [] { log(info.line) }
        result.buildID = current.related["build"] ?? result.buildID
        if result.buildID == nil, let app = try? await catalog.app(bundleID: request.bundleID) {
            result.buildID = try await catalog.builds(appID: app.id, version: request.version, build: request.build, platform: request.platform).first?.id
        }
        log("App Store Connect has \(request.version) (\(request.build))" + (result.buildID.map { " as build \($0)" } ?? ""))
        guard request.wait == .processed else { return result }
        guard let buildID = result.buildID else { throw AppStoreConnectError.noBuild(version: request.version, build: request.build) }
        let processed = try await waitUntilProcessed(
            buildID: buildID, version: request.version, build: request.build,
            pollInterval: request.pollInterval, timeout: request.waitTimeout, budget: request.waitBudget, since: started)
        result.processingState = processed
        return result
    }

    /// Polls the build until it is `VALID`; `FAILED` or `INVALID` throw, and so does a `budget` (seconds) that runs out
    /// first (``AppStoreConnectError/stillWaiting(what:seconds:lastState:)``: the caller ends waiting, not failed).
    package func waitUntilProcessed(
        buildID: String, version: String, build: String, pollInterval: Duration, timeout: Double,
        budget: Double? = nil, since started: Date? = nil
    ) async throws -> String {
        let started = started ?? now()
        let what = "processing of build \(version) (\(build))"
        return try await poll(what, interval: pollInterval, timeout: timeout, budget: budget).until(String.self, since: started) {
            let state = try await client.resource(BuildAttributes.self, "/v1/builds/\(buildID)").attributes?.processingState ?? "PROCESSING"
            switch state {
            case "VALID":
                log("build \(version) (\(build)) is processed (VALID)")
                return .done(state)
            case "FAILED", "INVALID":
                throw AppStoreConnectError.processingFailed(what: what, state: state, errors: [])
            default:
                return .waiting(state: state)
            }
        }
    }

    /// The poll loop of a wait for `what`, on this uploader's clock.
    func poll(_ what: String, interval: Duration, timeout: Double, budget: Double?) -> AppStoreConnectPoll {
        AppStoreConnectPoll(what: what, interval: interval, timeout: timeout, budget: budget, sleep: sleep, now: now)
    }
}
