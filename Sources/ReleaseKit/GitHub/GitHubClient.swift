import Foundation
import ReleaseHTTP
import ReleaseSupport
import Synchronization

/// A client for GitHub's Releases API (github.com, GitHub Enterprise, or the local GitHub server of `Rehearsal`).
///
/// The token goes only into the `Authorization` header and only to the API host and its uploads host
/// (`uploads.github.com` for `api.github.com`, the same host for Enterprise and the local server): the
/// underlying ``HTTPClient`` refuses any other host. API calls retry per the client's ``RetryPolicy``;
/// asset uploads do not (``ReleasePublisher`` looks at the release before trying again).
package struct GitHubClient: Sendable {
    /// The API base URL without a trailing slash, for example `https://api.github.com`.
    package let apiURL: String
    /// Counters of requests and uploaded bytes, shared by copies of this client.
    package let statistics: GitHubStatistics
    let http: HTTPClient
    private let authorization: String

    /// - Parameters:
    ///   - apiURL: `https://api.github.com`, `https://HOST/api/v3`, or a local server's URL.
    ///   - token: a token with `contents: write` (or read, for preflight only).
    ///   - configuration: timeouts and retries; its `credentialHosts` are replaced by the API and uploads hosts.
    /// - Throws: ``GitHubError/invalidInput(_:)`` when `apiURL` is not an http(s) URL with a host.
    package init(
        apiURL: String,
        token: String,
        configuration: HTTPClient.Configuration = HTTPClient.Configuration(),
        statistics: GitHubStatistics = GitHubStatistics()
    ) throws {
        var base = apiURL
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = HTTPRequest.httpComponents(base), let host = components.hostWithoutIDNA?.lowercased() else {
            throw GitHubError.invalidInput("invalid GitHub API URL '\(HTTPRequest.redact(apiURL))'")
        }
        guard components.user == nil, components.password == nil else {
            throw GitHubError.invalidInput("the GitHub API URL must not contain credentials; pass the token as 'token'")
        }
        var configuration = configuration
        configuration.credentialHosts = Self.credentialHosts(forAPIHost: host)
        let counters = statistics
        let previous = configuration.onRetry
        configuration.onRetry = { message in
            counters.addRequest()  // the retry is one more request
            previous?(message)
        }
        self.apiURL = base
        self.statistics = statistics
        self.http = HTTPClient(configuration: configuration)
        self.authorization = "Bearer \(token)"
    }

    /// The hosts allowed to receive the token: the API host, and `uploads.github.com` beside `api.github.com`.
    package static func credentialHosts(forAPIHost host: String) -> Set<String> {
        let host = host.lowercased()
        if host == "api.github.com" { return [host, "uploads.github.com"] }
        return [host]
    }

    // MARK: Requests

    /// Sends an API request to `path` (relative to ``apiURL``) or an absolute URL; returns the response
    /// whatever its status.
    package func send(
        _ method: String,
        _ pathOrURL: String,
        json: (any Encodable & Sendable)? = nil,
        retry: RetryPolicy? = nil
    ) async throws -> HTTPResponse {
        let url = pathOrURL.hasPrefix("http://") || pathOrURL.hasPrefix("https://") ? pathOrURL : apiURL + pathOrURL
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/vnd.github+json"),
            ("X-GitHub-Api-Version", "2022-11-28"),
        ]
        var body = HTTPBody.empty
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            body = .data(try encoder.encode(json))
            headers.append(("Content-Type", "application/json"))
        }
        statistics.addRequest()
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: body, authorization: authorization, retryPolicy: retry
        )
        return try await http.send(request)
    }

    /// Sends a request and decodes a 2xx body as `T`, turning other statuses into ``GitHubError``.
    func call<T: Decodable>(_ type: T.Type, _ method: String, _ path: String, json: (any Encodable & Sendable)? = nil) async throws -> T {
        let response = try await send(method, path, json: json)
        try check(response, method: method, url: fullURL(path))
        return try decode(type, response, url: fullURL(path))
    }

    func fullURL(_ pathOrURL: String) -> String {
        HTTPRequest.redact(pathOrURL.hasPrefix("http") ? pathOrURL : apiURL + pathOrURL)
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, url: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw GitHubError.invalidResponse(url: url, reason: "cannot decode \(T.self): \(error)")
        }
    }

    /// Throws the ``GitHubError`` for a non-2xx response.
    func check(_ response: HTTPResponse, method: String, url: String) throws {
        guard !response.isSuccess else { return }
        let message = Self.message(of: response)
        if response.status == 401 { throw GitHubError.badCredentials(api: apiURL, message: message.isEmpty ? "Unauthorized" : message) }
        throw GitHubError.api(method: method, url: url, status: response.status, message: message)
    }

    /// GitHub's `message`, with the codes of `errors[]` (`already_exists`), from an error body.
    package static func message(of response: HTTPResponse) -> String {
        struct Body: Decodable {
            struct Item: Decodable {
                var code: String?
                var field: String?
                var message: String?
            }
            var message: String?
            var errors: [Item]?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: response.body) else {
            let text = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.hasPrefix("<") ? "" : String(text.prefix(200))
        }
        var message = body.message ?? ""
        let details = (body.errors ?? []).map { item in
            [item.code, item.field.map { "field '\($0)'" }, item.message].compactMap { $0 }.joined(separator: " ")
        }
        if !details.isEmpty { message += " (" + details.joined(separator: "; ") + ")" }
        return message
    }

    static func escape(_ segment: String) -> String { URITemplate.encode(segment) }

    package static func repoPath(_ repository: String) -> String {
        "/repos/" + repository.split(separator: "/", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "/")
    }

    // MARK: Endpoints

    /// `GET /user`: the login the token belongs to.
    package func authenticatedUser() async throws -> String {
        struct User: Decodable { var login: String }
        return try await call(User.self, "GET", "/user").login
    }

    /// `GET /repos/{owner}/{repo}`: the repository with the token's permissions.
    package func repository(_ repository: String) async throws -> GitHubRepository {
        try await call(GitHubRepository.self, "GET", Self.repoPath(repository))
    }

    /// Every release of `repository`, drafts included when the token can push, following `Link: rel="next"`.
    package func listReleases(_ repository: String) async throws -> [GitHubRelease] {
        try await paginate(GitHubRelease.self, Self.repoPath(repository) + "/releases?per_page=100")
    }

    /// `GET /repos/{owner}/{repo}/releases/{id}`.
    package func release(_ repository: String, id: Int) async throws -> GitHubRelease {
        try await call(GitHubRelease.self, "GET", Self.repoPath(repository) + "/releases/\(id)")
    }

    /// `GET /repos/{owner}/{repo}/releases/tags/{tag}`: a published release, nil when none (drafts are never found).
    package func releaseByTag(_ repository: String, tag: String) async throws -> GitHubRelease? {
        let path = Self.repoPath(repository) + "/releases/tags/" + Self.escape(tag)
        let response = try await send("GET", path)
        if response.status == 404 { return nil }
        try check(response, method: "GET", url: fullURL(path))
        return try decode(GitHubRelease.self, response, url: fullURL(path))
    }

    /// `POST /repos/{owner}/{repo}/releases`, sent once: the caller decides whether a failure may be retried.
    package func createRelease(_ repository: String, _ fields: GitHubReleaseFields) async throws -> GitHubRelease {
        let path = Self.repoPath(repository) + "/releases"
        let response = try await send("POST", path, json: fields, retry: .once)
        try check(response, method: "POST", url: fullURL(path))
        return try decode(GitHubRelease.self, response, url: fullURL(path))
    }

    /// `PATCH /repos/{owner}/{repo}/releases/{id}` (publishing is `draft: false`).
    package func updateRelease(_ repository: String, id: Int, _ fields: GitHubReleaseFields) async throws -> GitHubRelease {
        try await call(GitHubRelease.self, "PATCH", Self.repoPath(repository) + "/releases/\(id)", json: fields)
    }

    /// `DELETE /repos/{owner}/{repo}/releases/{id}`.
    package func deleteRelease(_ repository: String, id: Int) async throws {
        let path = Self.repoPath(repository) + "/releases/\(id)"
        let response = try await send("DELETE", path)
        try check(response, method: "DELETE", url: fullURL(path))
    }

    /// Every asset of release `releaseID`, `starter` ones included.
    package func listAssets(_ repository: String, releaseID: Int) async throws -> [GitHubReleaseAsset] {
        try await paginate(GitHubReleaseAsset.self, Self.repoPath(repository) + "/releases/\(releaseID)/assets?per_page=100")
    }

    /// `DELETE /repos/{owner}/{repo}/releases/assets/{id}`; a 404 (already gone) counts as done.
    package func deleteAsset(_ repository: String, assetID: Int) async throws {
        let path = Self.repoPath(repository) + "/releases/assets/\(assetID)"
        let response = try await send("DELETE", path)
        if response.status == 404 { return }
        try check(response, method: "DELETE", url: fullURL(path))
    }

    /// Uploads the file at `path` to the URL built from the release's `upload_url` template, streamed from disk
    /// with Content-Length. Sent once (no retries); returns the response whatever its status.
    /// - Parameters:
    ///   - digest: fed with the file's bytes as they are read, so the caller gets its SHA-256 without a second read.
    ///   - progress: (bytes sent, total).
    package func uploadAsset(
        uploadURLTemplate: String,
        file path: String,
        name: String,
        label: String? = nil,
        contentType: String,
        digest: StreamingDigest? = nil,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> HTTPResponse {
        var variables = ["name": name]
        if let label { variables["label"] = label }
        let url = URITemplate.expand(uploadURLTemplate, variables)
        let request = HTTPRequest(
            method: "POST", url: url,
            headers: [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28"), ("Content-Type", contentType)],
            body: .file(path: path), authorization: authorization, retryPolicy: RetryPolicy.once,
            bodyDigest: digest
        )
        statistics.addRequest()
        let sent = Atomic<Int64>(0)
        defer { statistics.addBytes(sent.load(ordering: .relaxed)) }
        return try await http.send(request) { bytes, total in
            sent.store(bytes, ordering: .relaxed)
            progress?(bytes, total)
        }
    }

    /// `POST /repos/{owner}/{repo}/releases/generate-notes`: the notes GitHub would write for a release of `tag`
    /// (which need not exist yet: `target` names the commit it would be created on), covering the changes since
    /// `previousTag` (nil: GitHub picks the latest release). Nothing is created.
    package func generateNotes(_ repository: String, tag: String, target: String? = nil, previousTag: String? = nil) async throws -> GitHubGeneratedNotes {
        let request = GitHubGeneratedNotes.Request(tagName: tag, targetCommitish: target, previousTagName: previousTag)
        return try await call(GitHubGeneratedNotes.self, "POST", Self.repoPath(repository) + "/releases/generate-notes", json: request)
    }

    /// GETs `path` and every `Link: rel="next"` page after it.
    func paginate<T: Decodable>(_ type: T.Type, _ path: String) async throws -> [T] {
        var items: [T] = []
        var next: String? = path
        var pages = 0
        while let current = next, pages < 1000 {
            let response = try await send("GET", current)
            try check(response, method: "GET", url: fullURL(current))
            items += try decode([T].self, response, url: fullURL(current))
            next = Self.nextLink(response.header("Link"))
            pages += 1
        }
        return items
    }

    /// The `rel="next"` URL of a `Link` header.
    static func nextLink(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count >= 2, pieces.dropFirst().contains(where: { $0 == "rel=\"next\"" }) else { continue }
            let target = pieces[0]
            if target.hasPrefix("<"), target.hasSuffix(">") { return String(target.dropFirst().dropLast()) }
        }
        return nil
    }
}
