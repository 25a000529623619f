import Foundation
import ReleaseGitHub
import ReleaseHTTP

/// Request handling: authentication, faults, and the Releases API endpoints.
extension LocalGitHubServer: LocalHTTPResponder {
    /// A response about to be written.
    struct Reply {
        var status: Int
        var json: Any?
        var headers: [(String, String)] = []
        var close = false
        var rawBody: Data?
        var contentType = "application/json; charset=utf-8"
    }

    /// Parsed request facts every handler needs.
    struct Incoming {
        var exchange: ServerExchange
        var components: [String]
        var route: LocalServerRoute
        var token: String?
        var fault: LocalServerFault?

        var path: String { exchange.path }
        var query: [String: String] { exchange.query }
    }

    /// The largest JSON body read into memory; larger ones are refused without being kept.
    static let maxJSONBody = 4 << 20

    func respond(to exchange: ServerExchange) async {
        let components = Self.components(exchange.path)
        let route = Self.route(method: exchange.method, components: components)
        if exchange.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            await write(Reply(status: 411, json: Self.message("Length Required"), close: true), to: exchange)
            return
        }
        if exchange.header("Expect")?.equalsIgnoringASCIICase("100-continue") == true {
            await exchange.sendContinue()
        }
        let incoming = Incoming(
            exchange: exchange, components: components, route: route,
            token: Self.token(from: exchange.header("Authorization")),
            fault: takeFault(method: exchange.method, path: exchange.path, route: route)
        )
        guard var reply = await answer(incoming) else { return }  // answered or dropped already
        if case .gatewayTimeoutAfterUpload = incoming.fault {
            reply = Reply(status: 504, json: Self.message("Gateway Timeout"), close: true)
        }
        await write(reply, to: exchange)
    }

    /// The reply to `incoming`, or nil when the connection was answered or dropped already.
    private func answer(_ incoming: Incoming) async -> Reply? {
        let exchange = incoming.exchange
        if let early = await earlyFault(incoming) {
            return early
        }
        if exchange.isAnswered { return nil }
        if incoming.route != .download, let denied = authenticate(incoming) {
            await exchange.drain()
            return denied
        }
        switch incoming.route {
        case .uploadAsset:
            return await upload(incoming)
        case .download:
            await exchange.drain()
            await download(incoming)
            return nil
        case .unknown:
            await exchange.drain()
            return Self.notFound()
        default:
            guard exchange.contentLength ?? 0 <= Self.maxJSONBody else {
                await exchange.drain()
                return Reply(status: 413, json: Self.message("Request body too large"), close: true)
            }
            guard let body = await exchange.collect(maxBytes: Self.maxJSONBody) else {
                await exchange.drop()  // the client went away mid-body
                return nil
            }
            return respond(incoming, body: Data(body))
        }
    }

    /// Faults that act before the endpoint: a status reply, or a dropped connection (then nil, with
    /// `exchange.isAnswered`). Upload faults are left to ``upload(_:)``.
    private func earlyFault(_ incoming: Incoming) async -> Reply? {
        guard let fault = incoming.fault else { return nil }
        let exchange = incoming.exchange
        switch fault {
        case .secondaryRateLimit(let seconds):
            await exchange.drain()
            return Reply(
                status: 403,
                json: Self.message("You have exceeded a secondary rate limit. Please wait a few minutes before you try again."),
                headers: [("Retry-After", "\(seconds)")], close: true
            )
        case .tooManyRequests(let seconds):
            await exchange.drain()
            return Reply(status: 429, json: Self.message("Too Many Requests"), headers: [("Retry-After", "\(seconds)")], close: true)
        case .status(let status, let message):
            await exchange.drain()
            return Reply(status: status, json: Self.message(message), close: true)
        case .badGatewayAfterBody where incoming.route != .uploadAsset:
            await exchange.drain()
            return Reply(status: 502, json: Self.message("Bad Gateway"), close: true)
        case .resetMidBody(let after) where incoming.route != .uploadAsset:
            await exchange.drain(limit: after)
            await exchange.reset()
            return nil
        case .stall(let after, let seconds) where incoming.route != .uploadAsset:
            await exchange.drain(limit: after)
            await exchange.stall(for: seconds)
            return nil
        default:
            return nil
        }
    }

    private static func token(from authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, ["token", "bearer"].contains(parts[0].lowercased()) else { return nil }
        return String(parts[1])
    }

    private func authenticate(_ incoming: Incoming) -> Reply? {
        guard let token = incoming.token else {
            return Reply(status: 401, json: Self.message("Requires authentication"))
        }
        if token == configuration.token { return nil }
        if configuration.readOnlyTokens.contains(token) {
            let writes: Set<LocalServerRoute> = [.createRelease, .generateNotes, .updateRelease, .deleteRelease, .uploadAsset, .updateAsset, .deleteAsset]
            if writes.contains(incoming.route) {
                return Reply(status: 403, json: Self.message("Resource not accessible by personal access token"))
            }
            return nil
        }
        return Reply(status: 401, json: Self.message("Bad credentials"))
    }

    private func canPush(_ incoming: Incoming) -> Bool { incoming.token == configuration.token }

    // MARK: Routing

    /// The percent-decoded segments of a request path.
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// The endpoint a request (upper-case method, percent-encoded path) is for.
    static func route(method: String, path: String) -> LocalServerRoute {
        route(method: method, components: components(path))
    }

    static func route(method: String, components: [String]) -> LocalServerRoute {
        switch (method, components.count) {
        case ("GET", 1) where components[0] == "user": return .user
        case ("GET", 3) where components[0] == "repos": return .repository
        case (_, 4) where components[0] == "repos" && components[3] == "releases":
            return method == "GET" ? .listReleases : method == "POST" ? .createRelease : .unknown
        case ("GET", 6) where components[0] == "repos" && components[3] == "releases" && components[4] == "tags":
            return .releaseByTag
        case (_, 6) where components[0] == "repos" && components[3] == "releases" && components[4] == "assets":
            switch method {
            case "GET": return .getAsset
            case "PATCH": return .updateAsset
            case "DELETE": return .deleteAsset
            default: return .unknown
            }
        case ("POST", 5) where components[0] == "repos" && components[3] == "releases" && components[4] == "generate-notes":
            return .generateNotes
        case (_, 5) where components[0] == "repos" && components[3] == "releases":
            switch method {
            case "GET": return .getRelease
            case "PATCH": return .updateRelease
            case "DELETE": return .deleteRelease
            default: return .unknown
            }
        case (_, 6) where components[0] == "repos" && components[3] == "releases" && components[5] == "assets":
            return method == "GET" ? .listAssets : method == "POST" ? .uploadAsset : .unknown
        case ("GET", 6) where components[2] == "releases" && components[3] == "download":
            return .download
        default:
            return .unknown
        }
    }

    private func repository(_ incoming: Incoming) -> String {
        incoming.components.count >= 3 ? "\(incoming.components[1])/\(incoming.components[2])" : ""
    }

    private func respond(_ incoming: Incoming, body: Data) -> Reply {
        let repo = repository(incoming)
        let base = url
        switch incoming.route {
        case .user:
            return Reply(status: 200, json: ["login": configuration.login, "id": 1, "type": "User"])
        case .repository:
            let push = canPush(incoming)
            return Reply(
                status: 200,
                json: [
                    "id": 1, "name": incoming.components[2], "full_name": repo, "private": false,
                    "html_url": "\(base)/\(repo)", "url": "\(base)/repos/\(repo)",
                    "permissions": ["admin": false, "maintain": false, "push": push, "triage": push, "pull": true],
                ])
        case .listReleases:
            let all = releases(repository: repo).filter { !$0.draft || canPush(incoming) }
            return paginate(all.map { releaseJSON($0) }, incoming)
        case .createRelease:
            return createRelease(repo: repo, body: body)
        case .generateNotes:
            return generateNotes(repo: repo, body: body)
        case .releaseByTag:
            let tag = incoming.components[5]
            guard let release = releases(repository: repo).first(where: { $0.tagName == tag && !$0.draft }) else {
                return Self.notFound()
            }
            return Reply(status: 200, json: releaseJSON(release))
        case .getRelease, .updateRelease, .deleteRelease, .listAssets:
            guard let id = Int(incoming.components[4]),
                let release = releases(repository: repo).first(where: { $0.id == id }),
                !release.draft || canPush(incoming)
            else {
                return Self.notFound()
            }
            switch incoming.route {
            case .getRelease: return Reply(status: 200, json: releaseJSON(release))
            case .updateRelease: return updateRelease(release, body: body)
            case .deleteRelease: return deleteRelease(release)
            default: return paginate(assets(releaseID: release.id).map { assetJSON($0, release: release) }, incoming)
            }
        case .getAsset, .updateAsset, .deleteAsset:
            guard let id = Int(incoming.components[5]),
                let asset = state.withLock({ $0.snapshot.assets.first { $0.id == id } }),
                let release = releases(repository: repo).first(where: { $0.id == asset.releaseID })
            else {
                return Self.notFound()
            }
            switch incoming.route {
            case .getAsset: return Reply(status: 200, json: assetJSON(asset, release: release))
            case .updateAsset: return updateAsset(asset, release: release, body: body)
            default: return deleteAsset(asset, release: release)
            }
        case .uploadAsset, .download, .unknown:
            return Self.notFound()
        }
    }

    private func paginate(_ items: [[String: Any]], _ incoming: Incoming) -> Reply {
        let perPage = min(100, max(1, incoming.query["per_page"].flatMap { Int($0) } ?? 30))
        let page = max(1, incoming.query["page"].flatMap { Int($0) } ?? 1)
        let lastPage = max(1, (items.count + perPage - 1) / perPage)
        let slice = Array(items.dropFirst((page - 1) * perPage).prefix(perPage))
        var links: [String] = []
        let link = { (number: Int, rel: String) in "<\(self.url)\(incoming.path)?per_page=\(perPage)&page=\(number)>; rel=\"\(rel)\"" }
        if page < lastPage {
            links.append(link(page + 1, "next"))
            links.append(link(lastPage, "last"))
        }
        if page > 1 {
            links.append(link(1, "first"))
            links.append(link(page - 1, "prev"))
        }
        return Reply(status: 200, json: slice, headers: links.isEmpty ? [] : [("Link", links.joined(separator: ", "))])
    }

    // MARK: Releases

    private static func object(_ body: Data) -> [String: Any]? {
        if body.isEmpty { return [:] }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private func createRelease(repo: String, body: Data) -> Reply {
        guard let fields = Self.object(body) else { return Reply(status: 400, json: Self.message("Problems parsing JSON")) }
        guard let tag = fields["tag_name"] as? String, !tag.isEmpty else {
            return Self.validationFailed(resource: "Release", code: "missing_field", field: "tag_name")
        }
        let draft = fields["draft"] as? Bool ?? false
        return state.withLock { state -> Reply in
            if !draft, state.snapshot.releases.contains(where: { $0.repository == repo && $0.tagName == tag && !$0.draft }) {
                return Self.validationFailed(resource: "Release", code: "already_exists", field: "tag_name")
            }
            let id = state.snapshot.nextID
            state.snapshot.nextID += 1
            var notes = fields["body"] as? String
            if (notes ?? "").isEmpty, fields["generate_release_notes"] as? Bool == true {
                notes = "**Full Changelog**: \(url)/\(repo)/commits/\(tag)"
            }
            let now = Date()
            var release = LocalRelease(
                id: id, repository: repo, tagName: tag, name: fields["name"] as? String, body: notes,
                targetCommitish: fields["target_commitish"] as? String ?? "main", draft: draft,
                prerelease: fields["prerelease"] as? Bool ?? false, makeLatest: fields["make_latest"] as? String,
                immutable: false, createdAt: now, publishedAt: draft ? nil : now
            )
            if !draft && configuration.immutableReleases { release.immutable = true }
            state.snapshot.releases.append(release)
            persist(state.snapshot)
            return Reply(status: 201, json: releaseJSON(release, assets: []))
        }
    }

    /// GitHub's generated notes without the pull requests (the stand-in keeps no git history): the heading and the
    /// "Full Changelog" link from `previous_tag_name`, else the latest published release, to `tag_name`.
    private func generateNotes(repo: String, body: Data) -> Reply {
        guard let fields = Self.object(body) else { return Reply(status: 400, json: Self.message("Problems parsing JSON")) }
        guard let tag = fields["tag_name"] as? String, !tag.isEmpty else {
            return Self.validationFailed(resource: "Release", code: "missing_field", field: "tag_name")
        }
        let previous =
            fields["previous_tag_name"] as? String
            ?? releases(repository: repo).filter { !$0.draft && $0.tagName != tag }.max { ($0.publishedAt ?? .distantPast) < ($1.publishedAt ?? .distantPast) }?.tagName
        let changelog = previous.map { "\(url)/\(repo)/compare/\($0)...\(tag)" } ?? "\(url)/\(repo)/commits/\(tag)"
        return Reply(status: 200, json: ["name": tag, "body": "## What's Changed\n\n**Full Changelog**: \(changelog)"])
    }

    private func updateRelease(_ release: LocalRelease, body: Data) -> Reply {
        guard let fields = Self.object(body) else { return Reply(status: 400, json: Self.message("Problems parsing JSON")) }
        return state.withLock { state -> Reply in
            guard let index = state.snapshot.releases.firstIndex(where: { $0.id == release.id }) else { return Self.notFound() }
            var updated = state.snapshot.releases[index]
            if let tag = fields["tag_name"] as? String, tag != updated.tagName {
                if updated.immutable { return Self.immutable() }
                updated.tagName = tag
            }
            if let name = fields["name"] as? String { updated.name = name }
            if let notes = fields["body"] as? String { updated.body = notes }
            if let target = fields["target_commitish"] as? String { updated.targetCommitish = target }
            if let prerelease = fields["prerelease"] as? Bool { updated.prerelease = prerelease }
            if let latest = fields["make_latest"] as? String { updated.makeLatest = latest }
            if let draft = fields["draft"] as? Bool, draft != updated.draft {
                if draft && updated.immutable { return Self.immutable() }
                if !draft,
                    state.snapshot.releases.contains(where: {
                        $0.repository == updated.repository && $0.tagName == updated.tagName && !$0.draft && $0.id != updated.id
                    })
                {
                    return Self.validationFailed(resource: "Release", code: "already_exists", field: "tag_name")
                }
                updated.draft = draft
                updated.publishedAt = draft ? nil : Date()
                if !draft && configuration.immutableReleases { updated.immutable = true }
            }
            state.snapshot.releases[index] = updated
            persist(state.snapshot)
            let assets = state.snapshot.assets.filter { $0.releaseID == updated.id }
            return Reply(status: 200, json: releaseJSON(updated, assets: assets))
        }
    }

    private func deleteRelease(_ release: LocalRelease) -> Reply {
        let removed = state.withLock { state -> [Int] in
            state.snapshot.releases.removeAll { $0.id == release.id }
            let ids = state.snapshot.assets.filter { $0.releaseID == release.id }.map(\.id)
            state.snapshot.assets.removeAll { $0.releaseID == release.id }
            persist(state.snapshot)
            return ids
        }
        for id in removed { try? FileManager.default.removeItem(atPath: assetPath(id)) }
        return Reply(status: 204, json: nil)
    }

    // MARK: Assets

    private func updateAsset(_ asset: LocalReleaseAsset, release: LocalRelease, body: Data) -> Reply {
        if release.immutable { return Self.immutable() }
        guard let fields = Self.object(body) else { return Reply(status: 400, json: Self.message("Problems parsing JSON")) }
        return state.withLock { state -> Reply in
            guard let index = state.snapshot.assets.firstIndex(where: { $0.id == asset.id }) else { return Self.notFound() }
            if let name = fields["name"] as? String { state.snapshot.assets[index].name = GitHubAssetName.normalized(name) }
            if let label = fields["label"] as? String { state.snapshot.assets[index].label = label }
            persist(state.snapshot)
            return Reply(status: 200, json: assetJSON(state.snapshot.assets[index], release: release))
        }
    }

    private func deleteAsset(_ asset: LocalReleaseAsset, release: LocalRelease) -> Reply {
        if release.immutable { return Self.immutable() }
        state.withLock { state in
            state.snapshot.assets.removeAll { $0.id == asset.id }
            persist(state.snapshot)
        }
        try? FileManager.default.removeItem(atPath: assetPath(asset.id))
        try? FileManager.default.removeItem(atPath: assetPath(asset.id) + ".part")
        return Reply(status: 204, json: nil)
    }

    /// Streams the body to disk while hashing it. nil when the connection was dropped (by a fault or the
    /// client), leaving the asset `starter` like GitHub does.
    private func upload(_ incoming: Incoming) async -> Reply? {
        let exchange = incoming.exchange
        let repo = repository(incoming)
        guard let releaseID = Int(incoming.components[4]),
            let release = releases(repository: repo).first(where: { $0.id == releaseID })
        else {
            await exchange.drain()
            return Self.notFound()
        }
        if release.immutable {
            await exchange.drain()
            return Self.immutable()
        }
        guard let rawName = incoming.query["name"], !rawName.isEmpty else {
            await exchange.drain()
            return Self.validationFailed(resource: "ReleaseAsset", code: "missing_field", field: "name")
        }
        guard let length = exchange.contentLength else {
            return Reply(status: 411, json: Self.message("Length Required"), close: true)
        }
        let name = GitHubAssetName.normalized(rawName)
        let contentType = exchange.header("Content-Type") ?? "application/octet-stream"
        let created: LocalReleaseAsset? = state.withLock { state in
            if state.snapshot.assets.contains(where: { $0.releaseID == releaseID && $0.name == name }) { return nil }
            let asset = LocalReleaseAsset(
                id: state.snapshot.nextID, releaseID: releaseID, name: name, label: incoming.query["label"],
                contentType: contentType, size: 0, state: "starter", digest: nil, createdAt: Date()
            )
            state.snapshot.nextID += 1
            state.snapshot.assets.append(asset)
            persist(state.snapshot)
            return asset
        }
        guard var asset = created else {
            await exchange.drain()
            return Self.validationFailed(resource: "ReleaseAsset", code: "already_exists", field: "name")
        }

        let partial = assetPath(asset.id) + ".part"
        guard let file = try? await PooledFile.create(partial) else {
            await exchange.drain()
            return Reply(status: 500, json: Self.message("cannot store asset"), close: true)
        }
        var limit = length
        switch incoming.fault {
        case .resetMidBody(let after), .stall(let after, _): limit = min(after, length)
        default: break
        }
        let (received, writeError) = await exchange.stream(into: file, limit: limit)
        let (_, digest) = await file.close()

        switch incoming.fault {
        case .resetMidBody:
            await exchange.reset()
            return nil
        case .stall(_, let seconds):
            await exchange.stall(for: seconds)
            return nil
        default:
            break
        }
        guard received == length else {
            await exchange.drop()  // the client went away: the asset stays `starter`
            return nil
        }
        if writeError != nil {
            return Reply(status: 500, json: Self.message("cannot store asset"), close: true)
        }
        if case .badGatewayAfterBody = incoming.fault {
            try? FileManager.default.removeItem(atPath: partial)
            return Reply(status: 502, json: nil, close: true, rawBody: Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8), contentType: "text/html")
        }
        do {
            try? FileManager.default.removeItem(atPath: assetPath(asset.id))
            try FileManager.default.moveItem(atPath: partial, toPath: assetPath(asset.id))
        } catch {
            return Reply(status: 500, json: Self.message("cannot store asset"), close: true)
        }
        asset.size = received
        asset.state = "uploaded"
        asset.digest = "sha256:" + digest
        let stored = state.withLock { [asset] state -> Bool in
            guard let index = state.snapshot.assets.firstIndex(where: { $0.id == asset.id }) else { return false }
            state.snapshot.assets[index] = asset
            persist(state.snapshot)
            return true
        }
        guard stored else { return Self.notFound() }  // deleted while uploading
        return Reply(status: 201, json: assetJSON(asset, release: release))
    }

    /// Streams an uploaded asset from disk.
    private func download(_ incoming: Incoming) async {
        let exchange = incoming.exchange
        let repo = "\(incoming.components[0])/\(incoming.components[1])"
        let tag = incoming.components[4]
        let name = incoming.components[5]
        let found: LocalReleaseAsset? = state.withLock { state in
            guard let release = state.snapshot.releases.first(where: { $0.repository == repo && $0.tagName == tag && !$0.draft }) else {
                return nil
            }
            return state.snapshot.assets.first { $0.releaseID == release.id && $0.name == name && $0.state == "uploaded" }
        }
        guard let asset = found, let file = await PooledFile.open(assetPath(asset.id)) else {
            await write(Self.notFound(), to: exchange)
            return
        }
        await exchange.respond(status: 200, headers: [("Content-Type", asset.contentType)], file: file, length: asset.size)
        await file.close()
    }

    // MARK: Bodies

    func releaseJSON(_ release: LocalRelease, assets: [LocalReleaseAsset]? = nil) -> [String: Any] {
        let base = url
        let api = "\(base)/repos/\(release.repository)/releases/\(release.id)"
        let list = assets ?? self.assets(releaseID: release.id)
        let tagPath = release.tagName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? release.tagName
        return [
            "id": release.id,
            "node_id": "RE_\(release.id)",
            "url": api,
            "assets_url": "\(api)/assets",
            "upload_url": "\(base)/repos/\(release.repository)/releases/\(release.id)/assets{?name,label}",
            "html_url": "\(base)/\(release.repository)/releases/tag/\(tagPath)",
            "tag_name": release.tagName,
            "target_commitish": release.targetCommitish,
            "name": release.name as Any? ?? NSNull(),
            "body": release.body as Any? ?? NSNull(),
            "draft": release.draft,
            "prerelease": release.prerelease,
            "immutable": release.immutable,
            "created_at": Self.timestamp(release.createdAt),
            "published_at": release.publishedAt.map(Self.timestamp) as Any? ?? NSNull(),
            "author": ["login": configuration.login, "id": 1],
            "assets": list.map { assetJSON($0, release: release) },
        ]
    }

    func assetJSON(_ asset: LocalReleaseAsset, release: LocalRelease) -> [String: Any] {
        let base = url
        let tagPath = release.tagName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? release.tagName
        return [
            "id": asset.id,
            "node_id": "RA_\(asset.id)",
            "url": "\(base)/repos/\(release.repository)/releases/assets/\(asset.id)",
            "browser_download_url": "\(base)/\(release.repository)/releases/download/\(tagPath)/\(asset.name)",
            "name": asset.name,
            "label": asset.label as Any? ?? NSNull(),
            "state": asset.state,
            "content_type": asset.contentType,
            "size": asset.size,
            "digest": asset.digest as Any? ?? NSNull(),
            "download_count": 0,
            "created_at": Self.timestamp(asset.createdAt),
            "updated_at": Self.timestamp(asset.createdAt),
            "uploader": ["login": configuration.login, "id": 1],
        ]
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    static func message(_ text: String) -> [String: Any] {
        ["message": text, "documentation_url": "https://docs.github.com/rest"]
    }

    static func notFound() -> Reply {
        Reply(status: 404, json: message("Not Found"))
    }

    static func immutable() -> Reply {
        Reply(
            status: 422,
            json: [
                "message": "Cannot modify an immutable release.",
                "documentation_url": "https://docs.github.com/rest/releases/releases",
            ])
    }

    static func validationFailed(resource: String, code: String, field: String) -> Reply {
        Reply(
            status: 422,
            json: [
                "message": "Validation Failed",
                "errors": [["resource": resource, "code": code, "field": field]],
                "documentation_url": "https://docs.github.com/rest/releases/assets#upload-a-release-asset",
                "status": "422",
            ])
    }

    /// Answers with GitHub's rate-limit headers, counting the request against the limit.
    func write(_ reply: Reply, to exchange: ServerExchange) async {
        var body = reply.rawBody ?? Data()
        if reply.rawBody == nil, let json = reply.json {
            body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        }
        let (remaining, reset) = state.withLock { state -> (Int, Int) in
            state.rateRemaining = max(0, state.rateRemaining - 1)
            return (state.rateRemaining, state.rateReset)
        }
        var headers: [(String, String)] = [
            ("X-RateLimit-Limit", "\(configuration.rateLimit)"),
            ("X-RateLimit-Remaining", "\(remaining)"),
            ("X-RateLimit-Reset", "\(reset)"),
            ("X-RateLimit-Resource", "core"),
            ("X-GitHub-Api-Version", "2022-11-28"),
        ]
        if !body.isEmpty { headers.append(("Content-Type", reply.contentType)) }
        headers.append(contentsOf: reply.headers)
        await exchange.respond(status: reply.status, headers: headers, body: Array(body), close: reply.close)
    }
}
