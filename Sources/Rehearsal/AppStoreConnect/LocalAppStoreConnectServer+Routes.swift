import Foundation
import ReleaseHTTP

/// Request handling: routing to operations, authentication, faults, query parameters, pagination, and the
/// record of every exchange.
extension LocalAppStoreConnectServer: LocalHTTPResponder {
    /// An answer about to be written.
    struct Reply {
        var status: Int
        var json: Any?
        var headers: [(String, String)] = []

        init(status: Int, json: Any? = nil, headers: [(String, String)] = []) {
            self.status = status
            self.json = json
            self.headers = headers
        }

        init(_ problem: AppStoreConnectProblem) {
            self.init(status: problem.status, json: problem.json, headers: problem.headers)
        }
    }

    /// One API request as the handlers see it.
    struct APIRequest {
        var operation: AppStoreConnectOperation
        /// The `{id}` of the path.
        var id: String
        var query: [String: String]
        var body: Data
        /// Path and query as sent.
        var target: String
        var path: String

        /// The values of `filter[name]` (comma-separated), nil when absent.
        func filter(_ name: String) -> [String]? {
            query["filter[\(name)]"].map { $0.split(separator: ",").map(String.init) }
        }

        /// Whether a resource whose fields have these values (by filter name) passes every `filter[name]` of the
        /// request: an absent filter passes everything, a field without a value nothing.
        func matches(_ values: KeyValuePairs<String, String?>) -> Bool {
            values.allSatisfy { name, value in
                guard let accepted = filter(name) else { return true }
                return value.map(accepted.contains) ?? false
            }
        }
    }

    /// The largest JSON body read into memory.
    static let maxJSONBody = 1 << 20

    func respond(to exchange: ServerExchange) async {
        if exchange.path.hasPrefix("/upload/") {
            await uploadPart(exchange)
            return
        }
        if exchange.header("Expect")?.equalsIgnoringASCIICase("100-continue") == true {
            await exchange.sendContinue()  // curl asks before sending a larger JSON body
        }
        let segments = exchange.path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        let match = AppStoreConnectOperation.match(method: exchange.method, segments: segments)
        guard let body = await exchange.collect(maxBytes: Self.maxJSONBody) else {
            await exchange.drop()  // the client went away mid-body, or sent more than any request needs
            record(exchange, operation: match.operation, body: nil, status: 0, response: nil)
            return
        }
        // The reason stays in the record: Apple's answer says only that the credentials are invalid.
        let rejection = verifier.rejection(of: exchange.header("Authorization"), now: Date())
        let reply = rejection != nil ? Reply(.unauthorized) : await answer(exchange, match: match, body: Data(body))
        // Deliveries the request caused go out before its answer, so a client that saw the answer can count on them.
        await deliverWebhooks()
        await write(reply, to: exchange, operation: match.operation, requestBody: body.isEmpty ? nil : Data(body), rejection: rejection)
    }

    private func answer(
        _ exchange: ServerExchange, match: (operation: AppStoreConnectOperation?, id: String?, pathMatched: Bool), body: Data
    ) async -> Reply {
        guard let operation = match.operation else {
            return Reply(match.pathMatched ? .methodNotAllowed : .unknownPath)
        }
        let fault = state.withLock { $0.faults.take { $0.matches(operation: operation.rawValue, part: nil, processing: false) } }
        switch fault?.action {
        case .status(let status)?: return Reply(.serverError(status))
        case .tooManyRequests(let seconds)?: return Reply(.tooManyRequests(retryAfter: seconds))
        case .unauthorized?: return Reply(.unauthorized)
        default: break
        }
        let request = APIRequest(
            operation: operation, id: match.id ?? "", query: exchange.query, body: body, target: exchange.target, path: exchange.path
        )
        do {
            try checkQuery(request)
            return try await handle(request)
        } catch let problem as AppStoreConnectProblem {
            return Reply(problem)
        } catch {
            return Reply(.serverError(500))
        }
    }

    /// Records the exchange, then answers.
    func write(_ reply: Reply, to exchange: ServerExchange, operation: AppStoreConnectOperation?, requestBody: Data?, rejection: String? = nil) async {
        var body = Data()
        if let json = reply.json {
            body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        }
        var headers = reply.headers
        if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
        record(exchange, operation: operation, body: requestBody, status: reply.status, response: body.isEmpty ? nil : body, rejection: rejection)
        await exchange.respond(status: reply.status, headers: headers, body: Array(body))
    }

    func record(
        _ exchange: ServerExchange, operation: AppStoreConnectOperation?, body: Data?, status: Int, response: Data?, rejection: String? = nil
    ) {
        let entry = AppStoreConnectExchange(
            operationID: operation?.rawValue, method: exchange.method, target: exchange.target, requestHeaders: exchange.headers,
            requestBody: body, status: status, responseBody: response, authenticationFailure: rejection
        )
        state.withLock { $0.exchanges.append(entry) }
    }

    // MARK: Query parameters

    /// The filters (name → allowed values, nil = any) and sorts each operation takes; other `filter[…]` and
    /// unknown parameters are refused with 400 as Apple does. `fields[…]`, `include` and `limit[…]` are
    /// accepted; answers carry every field, and `include` adds the resources of to-one relationships.
    private static func querySpec(_ operation: AppStoreConnectOperation) -> (filters: [String: [String]?], sorts: [String], paged: Bool) {
        // App Store Connect's `Platform`, in the contract's order.
        let platforms = Self.platforms
        switch operation {
        case .appsList:
            return (["bundleId": nil, "name": nil, "sku": nil, "id": nil], ["name", "-name", "bundleId", "-bundleId", "sku", "-sku"], true)
        case .appBuildUploads:
            return (
                ["cfBundleShortVersionString": nil, "cfBundleVersion": nil, "platform": platforms, "state": nil],
                ["cfBundleVersion", "-cfBundleVersion", "uploadedDate", "-uploadedDate"], true
            )
        case .buildUploadFilesOfUpload:
            return ([:], [], true)
        case .buildsList:
            return (
                [
                    "app": nil, "version": nil, "expired": nil, "processingState": ["PROCESSING", "FAILED", "INVALID", "VALID"],
                    "preReleaseVersion.version": nil, "preReleaseVersion.platform": platforms, "preReleaseVersion": nil,
                    "betaGroups": nil, "id": nil, "usesNonExemptEncryption": nil,
                ], ["version", "-version", "uploadedDate", "-uploadedDate", "preReleaseVersion", "-preReleaseVersion"], true
            )
        case .preReleaseVersionsList:
            return (["app": nil, "version": nil, "platform": platforms, "builds.version": nil], ["version", "-version"], true)
        case .betaGroupsList:
            return (
                ["app": nil, "name": nil, "isInternalGroup": nil, "id": nil, "builds": nil],
                ["name", "-name", "createdDate", "-createdDate"], true
            )
        case .betaBuildLocalizationsList:
            return (["build": nil, "locale": nil], [], true)
        case .buildBetaDetailsList:
            return (["build": nil, "id": nil], [], true)
        case .appAppStoreVersions:
            return (["platform": platforms, "versionString": nil, "appStoreState": nil, "appVersionState": nil, "id": nil], [], true)
        case .appStoreVersionLocalizationsOfVersion:
            return (["locale": nil], [], true)
        case .reviewSubmissionsList:
            return (
                [
                    "app": nil, "platform": platforms,
                    "state": [
                        "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES", "CANCELING", "COMPLETING", "COMPLETE",
                    ],
                ], [], true
            )
        case .reviewSubmissionItemsOfSubmission, .appWebhooks:
            return ([:], [], true)
        case .appStoreVersionCustomerReviews:
            return (["rating": ["1", "2", "3", "4", "5"], "territory": nil, "reviewTerritory": nil], ["rating", "-rating", "createdDate", "-createdDate"], true)
        case .certificatesList, .bundleIdsList, .bundleIdProfiles, .devicesList, .profilesList:
            return signingQuerySpec(operation)
        default:
            return ([:], [], false)
        }
    }

    private func checkQuery(_ request: APIRequest) throws {
        let spec = Self.querySpec(request.operation)
        for (name, value) in request.query.sorted(by: { $0.key < $1.key }) {
            if name.hasPrefix("fields[") || name == "include" || name.hasPrefix("limit[") || name.hasPrefix("exists[") { continue }
            if spec.paged && (name == "limit" || name == "cursor") {
                if name == "limit", Int(value).map({ !(1...200).contains($0) }) ?? true {
                    throw AppStoreConnectProblem.invalidParameter(name, value)
                }
                if name == "cursor", Self.offset(fromCursor: value) == nil { throw AppStoreConnectProblem.invalidParameter(name, value) }
                continue
            }
            if name == "sort", !spec.sorts.isEmpty {
                for item in value.split(separator: ",").map(String.init) where !spec.sorts.contains(item) {
                    throw AppStoreConnectProblem.invalidParameter(name, item, allowed: spec.sorts)
                }
                continue
            }
            if name.hasPrefix("filter["), name.hasSuffix("]") {
                let key = String(name.dropFirst("filter[".count).dropLast())
                if let allowed = spec.filters[key] {
                    if let allowed, let bad = value.split(separator: ",").map(String.init).first(where: { !allowed.contains($0) }) {
                        throw AppStoreConnectProblem.invalidParameter(name, bad, allowed: allowed)
                    }
                    continue
                }
            }
            throw AppStoreConnectProblem.illegalParameter(name)
        }
    }

    // MARK: Pagination

    /// A page of the records `records` reads from the snapshot whose fields (by filter name) pass the request's
    /// filters (``APIRequest/matches(_:)``), as documents.
    func list<Record>(
        _ request: APIRequest, _ records: (AppStoreConnectSnapshot) -> [Record], as document: (Record) -> [String: Any],
        fields: (Record) -> KeyValuePairs<String, String?>
    ) -> Reply {
        page(readSnapshot { records($0).filter { request.matches(fields($0)) }.map(document) }, request)
    }

    /// What `read` finds in the snapshot, under the lock.
    func readSnapshot<T>(_ read: (AppStoreConnectSnapshot) -> T) -> T {
        state.withLock { read($0.snapshot) }
    }

    /// A collection document: the page of `items` that `limit` and `cursor` select, `links.self`, `links.next`
    /// while more remain, and `meta.paging`. Cursors are opaque to clients (Apple's are base64 JSON too).
    func page(_ items: [[String: Any]], _ request: APIRequest) -> Reply {
        let limit = request.query["limit"].flatMap { Int($0) } ?? configuration.defaultPageLimit
        let offset = request.query["cursor"].flatMap(Self.offset(fromCursor:)) ?? 0
        let slice = Array(items.dropFirst(offset).prefix(limit))
        var links: [String: Any] = ["self": url + request.target]
        if offset + slice.count < items.count {
            var components = URLComponents(string: url + request.target)
            var query = (components?.percentEncodedQueryItems ?? []).filter { $0.name != "cursor" && $0.name != "limit" }
            query.append(URLQueryItem(name: "cursor", value: Self.cursor(offset: offset + slice.count)))
            query.append(URLQueryItem(name: "limit", value: "\(limit)"))
            components?.percentEncodedQueryItems = query
            links["next"] = components?.string ?? ""
        }
        var document: [String: Any] = [
            "data": slice,
            "links": links,
            "meta": ["paging": ["total": items.count, "limit": limit]],
        ]
        if let included = included(slice, request) { document["included"] = included }
        return Reply(status: 200, json: document)
    }

    static func cursor(offset: Int) -> String {
        Data(#"{"offset":"\#(offset)"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    static func offset(fromCursor cursor: String) -> Int? {
        var text = cursor
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let offset = (object["offset"] as? String).flatMap({ Int($0) }), offset >= 0
        else { return nil }
        return offset
    }

    /// The document of the resource of `type` whose id is the path's, or 404 NOT_FOUND: the plain reads that
    /// change nothing.
    func instance<Resource: Sendable>(
        _ request: APIRequest, _ type: String, _ resources: KeyPath<AppStoreConnectSnapshot, [Resource]> & Sendable,
        id: KeyPath<Resource, String> & Sendable, render: (Resource) -> [String: Any]
    ) throws -> Reply {
        let found = state.withLock { state in
            state.snapshot[keyPath: resources].first { $0[keyPath: id] == request.id }
        }
        guard let found else { throw AppStoreConnectProblem.notFound(type, request.id) }
        return single(render(found), reading: request)
    }

    /// A single-resource document.
    func single(_ resource: [String: Any], status: Int = 200, selfLink: String) -> Reply {
        Reply(status: status, json: ["data": resource, "links": ["self": selfLink]] as [String: Any])
    }

    /// The answer to a create: the new resource's document (of `type`), linking to itself, with 201.
    func created(_ resource: [String: Any], _ type: String) -> Reply {
        single(resource, status: 201, selfLink: resourceURL(type, resource["id"] as? String ?? ""))
    }

    /// The answer to a read of one resource: its document, with `included` when the request asks for it.
    func single(_ resource: [String: Any], reading request: APIRequest) -> Reply {
        var document: [String: Any] = ["data": resource, "links": ["self": url + request.target]]
        if let included = included([resource], request) { document["included"] = included }
        return Reply(status: 200, json: document)
    }

    /// The resources `include=a,b` names through to-one relationships of `resources` (each once), or nil when
    /// nothing is asked. To-many relationships (`betaGroups` of a build) are not expanded.
    func included(_ resources: [[String: Any]], _ request: APIRequest) -> [[String: Any]]? {
        guard let names = request.query["include"]?.split(separator: ",").map(String.init), !names.isEmpty else { return nil }
        let snapshot = state.withLock { $0.snapshot }
        var seen: Set<String> = []
        var documents: [[String: Any]] = []
        for resource in resources {
            let relationships = resource["relationships"] as? [String: Any] ?? [:]
            for name in names {
                guard let linkage = (relationships[name] as? [String: Any])?["data"] as? [String: Any],
                    let type = linkage["type"] as? String, let id = linkage["id"] as? String,
                    seen.insert(type + "/" + id).inserted, let document = render(type, id, in: snapshot)
                else { continue }
                documents.append(document)
            }
        }
        return documents
    }

    /// The document of resource `type`/`id`, whatever its type.
    func render(_ type: String, _ id: String, in snapshot: AppStoreConnectSnapshot) -> [String: Any]? {
        switch type {
        case "apps": return snapshot.apps.first { $0.id == id }.map(appJSON)
        case "buildUploads": return snapshot.buildUploads.first { $0.id == id }.map { buildUploadJSON($0, files: snapshot.files) }
        case "buildUploadFiles": return snapshot.files.first { $0.id == id }.map(uploadFileJSON)
        case "builds": return snapshot.builds.first { $0.id == id }.map { buildJSON($0, submission: submissionID(ofBuild: id, in: snapshot)) }
        case "preReleaseVersions": return snapshot.preReleaseVersions.first { $0.id == id }.map(preReleaseVersionJSON)
        case "buildBetaDetails": return snapshot.betaDetails.first { $0.id == id }.map(betaDetailJSON)
        case "betaGroups": return snapshot.betaGroups.first { $0.id == id }.map(betaGroupJSON)
        case "betaBuildLocalizations": return snapshot.localizations.first { $0.id == id }.map(localizationJSON)
        case "betaAppReviewSubmissions": return snapshot.submissions.first { $0.id == id }.map(submissionJSON)
        case "appStoreVersions":
            return snapshot.appStoreVersions.first { $0.id == id }.map { version in
                versionJSON(version, phasedReleaseID: snapshot.phasedReleases.first { $0.versionID == version.id }?.id)
            }
        case "appStoreVersionLocalizations": return snapshot.versionLocalizations.first { $0.id == id }.map(versionLocalizationJSON)
        case "appStoreVersionPhasedReleases": return snapshot.phasedReleases.first { $0.id == id }.map(phasedReleaseJSON)
        case "certificates", "bundleIds", "devices", "profiles": return renderSigning(type, id, in: snapshot)
        default: return nil
        }
    }

    /// Sorts `items` by the request's `sort` (the first key; `-` for descending) with `key` giving each item's
    /// value for a sort name; numeric-aware, so build "10" comes after "9".
    func sorted<T>(_ items: [T], _ request: APIRequest, key: (T, String) -> String) -> [T] {
        guard let first = request.query["sort"]?.split(separator: ",").first else { return items }
        let descending = first.hasPrefix("-")
        let name = descending ? String(first.dropFirst()) : String(first)
        return items.sorted { left, right in
            let order = key(left, name).compare(key(right, name), options: .numeric)
            return descending ? order == .orderedDescending : order == .orderedAscending
        }
    }
}
