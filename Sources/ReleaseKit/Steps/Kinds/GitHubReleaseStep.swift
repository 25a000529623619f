import Foundation
import ReleaseGitHub
import ReleaseHTTP
import ReleaseSupport
import Synchronization

/// `github.release`: publishes a GitHub Release with its assets so that re-running it converges.
///
/// `verify` runs the publisher's preflight (token, repository access, tag state, files, sizes, names, body
/// length); in a dry run a read-only token is enough. `run` finds or creates the release as a draft,
/// uploads what is missing or broken (streamed from disk, with retries that re-check the release), verifies
/// sizes and digests, and publishes. See ``ReleasePublisher``.
package struct GitHubReleaseStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(must: .beGitHubRepository, help: "the repository, 'owner/name'")
        package var repo: String
        @StepOption(
            must: .notBeEmpty(trimmed: true, "the token is empty; pass ${secrets.GITHUB_TOKEN}"),
            help: "a token with 'contents: write', normally ${secrets.GITHUB_TOKEN}; sent only as an Authorization header to the API and uploads hosts")
        package var token: String
        @StepOption(
            must: .beHTTPURL(credentials: GitHubReleaseStep.credentialsInURL),
            help: "the API base URL (default $GITHUB_API_URL, else https://api.github.com; https://HOST/api/v3 for GitHub Enterprise)")
        package var api: String?
        @StepOption(must: .notBeEmpty(trimmed: true, "the tag is empty"), help: "the release's tag, for example v${steps.bump.outputs.version}")
        package var tag: String
        @StepOption(help: "the release title (default: GitHub shows the tag)")
        package var name: String?
        @StepOption(help: "the release notes (at most 125,000 characters)")
        package var body: String?
        @StepOption(.path, help: "read the release notes from this file instead of 'body'")
        package var bodyFile: String?
        @StepOption(help: "let GitHub generate the notes when creating the release")
        package var generateNotes: Bool = false
        @StepOption(help: "branch or commit the tag is created from when it does not exist")
        package var targetCommitish: String?
        @StepOption(help: "leave the release a draft (false: publish after the assets are verified)")
        package var draft: Bool = false
        @StepOption(help: "mark the release as a pre-release")
        package var prerelease: Bool = false
        @StepOption(help: "true, false or \"legacy\" (GitHub's default when absent)")
        package var makeLatest: MakeLatest?
        @StepOption(help: "files to attach; globs must match at least one file; content type by extension unless given")
        package var assets: [AssetOption] = []
        @StepOption(help: "what to do about a remote asset with the same name and different content")
        package var replace: AssetReplacePolicy = .fail
        @StepOption(range: 1...8, help: "uploads at once")
        package var concurrency: Int = 2
        @StepOption(range: 1...86_400, help: "seconds without progress before an upload is abandoned and retried")
        package var stallTimeout: Int = 60
        @StepOption(.path, help: "CA bundle for TLS verification (default $SSL_CERT_FILE, else the system's)")
        package var cacert: String?

        package init() {}

        package static let exclusions: [OptionExclusion] = [.atMostOne(["body", "body_file"], "give either 'body' or 'body_file', not both")]
    }

    /// `make_latest`: a bool, or `"true"`, `"false"`, `"legacy"` as GitHub takes it.
    package enum MakeLatest: OptionValue, Equatable {
        case value(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .value(flag ? "true" : "false")
            } else {
                self = .value(try container.decode(String.self))
            }
        }

        var text: String { if case .value(let text) = self { return text } else { return "" } }

        package static func optionTypeName(_ format: OptionFormat) -> String { "bool | string" }
    }

    /// One entry of `assets`: a path or glob, or an object with `path`, `name`, `label`, `content_type`.
    package struct AssetOption: OptionValue, Equatable {
        package var path: String
        package var name: String?
        package var label: String?
        package var contentType: String?

        enum CodingKeys: String, CodingKey {
            case path, name, label
            case contentType = "content_type"
        }

        package init(path: String, name: String? = nil, label: String? = nil, contentType: String? = nil) {
            self.path = path
            self.name = name
            self.label = label
            self.contentType = contentType
        }

        package init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let path = try? single.decode(String.self) {
                self.init(path: path)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                path: try container.decode(String.self, forKey: .path),
                name: try container.decodeIfPresent(String.self, forKey: .name),
                label: try container.decodeIfPresent(String.self, forKey: .label),
                contentType: try container.decodeIfPresent(String.self, forKey: .contentType)
            )
        }

        /// Whether `path` is a glob pattern.
        var isPattern: Bool { Glob.isPattern(path) }

        package static func optionTypeName(_ format: OptionFormat) -> String { "path | glob | {path, name, label, content_type}" }
    }

    package static let kind = "github.release"
    package static let exportTraits = ExportTraits(writesRepository: true, publishedFiles: "assets")
    package static let summary = "Publish a GitHub Release with assets; re-running converges on the same release"
    package static let outputs: [StepDocumentation.Output] = [
        .init("id", "number", "the release's id (0 in a dry run)"),
        .init("url", "string", "the release's web page (html_url)"),
        .init("upload_url", "string", "the release's upload_url template"),
        .init("assets", "list", "browser_download_url of every asset, in the order of 'assets'"),
        .init(
            "asset_url_NAME", "string",
            "browser_download_url of asset NAME, with characters other than letters and digits replaced by '_' (Demo.app.dSYM.zip → asset_url_Demo_app_dSYM_zip)"),
        .init("bytes_uploaded", "number", "asset bytes sent by this run (0 when everything was already published)"),
    ]
    package static let dynamicOutputs = true
    package static let example = """
        {"id": "publish", "uses": "github.release", "needs": ["zip", "dsyms"], "when": {"profile": "release"},
         "with": {"repo": "owner/client-releases", "token": "${secrets.GITHUB_TOKEN}",
                  "tag": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}_${now:yyyy-MM-dd'T'HH-mm-ss'Z'}",
                  "name": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}_${now:yyyy-MM-dd'T'HH-mm-ss'Z'}",
                  "body": "Build: ${steps.bump.outputs.version} (${steps.bump.outputs.build})\\nUploaded: ${now:yyyy/MM/dd HH:mm:ss}\\n",
                  "target_commitish": "master",
                  "assets": ["${steps.zip.outputs.path}",
                             {"path": "${steps.dsyms.outputs.path}", "label": "dSYMs"}],
                  "replace": "fail"}}
        """

    package let options: Options
    let replace: AssetReplacePolicy

    /// Why an `api` URL with a user or password is refused (`github.release`, `notes`).
    static let credentialsInURL = "the URL must not contain credentials; pass the token as 'token'"

    package init(options: Options) throws {
        try options.validate()
        if let body = options.body, body.count > ReleasePublication.maximumBodyLength {
            throw StepError.invalidOption("body", "\(body.count) characters; GitHub accepts at most \(ReleasePublication.maximumBodyLength)")
        }
        if let latest = options.makeLatest?.text, !["true", "false", "legacy"].contains(latest) {
            throw StepError.invalidOption("make_latest", "'\(latest)' is not true, false or \"legacy\"")
        }
        for asset in options.assets where asset.path.isEmpty {
            throw StepError.invalidOption("assets", "an asset path is empty")
        }
        self.options = options
        replace = options.replace
    }

    // MARK: Step

    package func verify(in context: StepContext) async throws {
        context.masker.add(options.token)
        let (publication, promised) = try publication(in: context, requireBody: false)
        do {
            let report = try await publisher(in: context).preflight(
                publication, requirePush: !context.isDryRun, promisedPaths: promised
            )
            for note in report.notes { context.log(note) }
        } catch {
            throw Self.stepError(error, context)
        }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        context.masker.add(options.token)
        let (publication, _) = try publication(in: context, requireBody: false)
        let api = try apiURL(in: context)
        let repoPath = api + GitHubClient.repoPath(options.repo)
        var effects: [PlannedEffect] = [
            .request(method: "GET", url: repoPath + "/releases?per_page=100", detail: "find the release for tag '\(options.tag)' (drafts included)"),
            .request(method: "POST", url: repoPath + "/releases", detail: "create draft release '\(options.tag)' unless it exists"),
        ]
        for asset in publication.assets {
            let size = context.files.size(asset.path).map { ByteFormat.size($0) + ", " } ?? ""
            effects.append(
                .request(
                    method: "POST",
                    url: Self.uploadsBase(api: api) + GitHubClient.repoPath(options.repo) + "/releases/{id}/assets?name=" + URITemplate.encode(asset.name),
                    detail: "upload '\(asset.path)' as '\(asset.remoteName)' (\(size)\(asset.contentType)) unless the same file is there"
                ))
        }
        if !options.draft {
            effects.append(.request(method: "PATCH", url: repoPath + "/releases/{id}", detail: "publish the release after verifying every asset's size and digest"))
        }
        var outputs = StepOutputs()
        let web = Self.webBase(api: api) + "/" + options.repo
        let tagPath = options.tag.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? options.tag
        outputs["id"] = .number(0)
        outputs["url"] = .string("\(web)/releases/tag/\(tagPath)")
        outputs["upload_url"] = .string(Self.uploadsBase(api: api) + GitHubClient.repoPath(options.repo) + "/releases/{id}/assets{?name,label}")
        var urls: [OutputValue] = []
        for asset in publication.assets {
            let url = "\(web)/releases/download/\(tagPath)/\(asset.remoteName)"
            urls.append(.string(url))
            outputs[Self.outputKey(asset.remoteName)] = .string(url)
        }
        outputs["assets"] = .list(urls)
        outputs["bytes_uploaded"] = .number(0)
        return StepPlan(effects: effects, outputs: outputs)
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        context.masker.add(options.token)
        let (publication, _) = try publication(in: context, requireBody: true)
        let result: PublishResult
        do {
            result = try await publisher(in: context).publish(publication)
        } catch {
            throw Self.stepError(error, context)
        }
        var outputs = StepOutputs()
        outputs["id"] = .number(Double(result.release.id))
        outputs["url"] = .string(result.release.htmlURL)
        outputs["upload_url"] = .string(result.release.uploadURL)
        outputs["assets"] = .list(result.assets.map { .string($0.browserDownloadURL) })
        for asset in result.assets { outputs[Self.outputKey(asset.name)] = .string(asset.browserDownloadURL) }
        outputs["bytes_uploaded"] = .number(Double(result.bytesUploaded))
        context.log("\(result.uploaded.count) uploaded, \(result.skipped.count) already there, \(result.apiCalls) API calls: \(result.release.htmlURL)")
        return outputs
    }

    // MARK: Helpers

    /// `api` as the step uses it: `--rehearse`'s server, the option, `$GITHUB_API_URL`, or github.com.
    func apiURL(in context: StepContext) throws -> String {
        try Self.apiURL(options.api, in: context)
    }

    /// The API URL for an `api` option, as every step that talks to GitHub uses it.
    static func apiURL(_ api: String?, in context: StepContext) throws -> String {
        try context.baseURL(.github, configured: api ?? context.environment["GITHUB_API_URL"] ?? "https://api.github.com")
    }

    /// The web host for an API URL: github.com for api.github.com, the host for Enterprise's `/api/v3`.
    static func webBase(api: String) -> String {
        guard var components = URLComponents(string: api) else { return api }
        if components.hostWithoutIDNA?.lowercased() == "api.github.com" { return "https://github.com" }
        if components.path.hasSuffix("/api/v3") { components.path = String(components.path.dropLast("/api/v3".count)) }
        return components.string ?? api
    }

    /// Where uploads go for an API URL (what `upload_url` will say).
    static func uploadsBase(api: String) -> String {
        guard var components = URLComponents(string: api) else { return api }
        if components.hostWithoutIDNA?.lowercased() == "api.github.com" { return "https://uploads.github.com" }
        if components.path.hasSuffix("/api/v3") {
            components.path = String(components.path.dropLast("/api/v3".count)) + "/api/uploads"
        }
        return components.string ?? api
    }

    /// `asset_url_` + the name with every character other than ASCII letters and digits replaced by `_`.
    static func outputKey(_ name: String) -> String {
        "asset_url_" + String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    func publisher(in context: StepContext) throws -> ReleasePublisher {
        let http = context.httpClient(for: .github) { configuration in
            configuration.caCertificateFile = options.cacert.map(context.resolvePath)
            configuration.stallTimeout = .seconds(options.stallTimeout)
        }
        let api = try apiURL(in: context)
        let client: GitHubClient
        do {
            client = try GitHubClient(apiURL: api, token: options.token, configuration: http.configuration)
        } catch {
            throw Self.stepError(error, context)
        }
        let sent = Mutex<[String: (Int64, Int64)]>([:])
        return ReleasePublisher(
            client: client,
            observer: PublishObserver(
                log: { line in context.log(line) },
                progress: { name, bytes, total in
                    let (done, all) = sent.withLock { current -> (Int64, Int64) in
                        current[name] = (bytes, total)
                        return current.values.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
                    }
                    context.progress(done: done, total: all)
                }
            ))
    }

    /// The publication from the options: globs expanded, paths absolute, body read. Returns the promised paths.
    func publication(in context: StepContext, requireBody: Bool) throws -> (ReleasePublication, Set<String>) {
        var assets: [PublishAsset] = []
        var promised: Set<String> = []
        for option in options.assets {
            if option.isPattern {
                let matches = Glob.files(matching: context.resolvePath(option.path))
                if matches.isEmpty {
                    // The folder the pattern searches (absolute, so never a one-character string: Foundation's
                    // deletingLastPathComponent crashes on those on Linux).
                    let folder = URL(fileURLWithPath: context.resolvePath(option.path)).deletingLastPathComponent().path
                    if context.isDryRun, case .promised = context.fileState(folder) { continue }
                    throw StepError.invalidOption("assets", "'\(option.path)' matches no file")
                }
                if option.name != nil && matches.count > 1 {
                    throw StepError.invalidOption("assets", "'\(option.path)' matches \(matches.count) files but gives one 'name'")
                }
                for path in matches {
                    assets.append(PublishAsset(path: path, name: option.name, label: option.label, contentType: option.contentType))
                }
            } else {
                let path = context.resolvePath(option.path)
                switch context.fileState(option.path) {
                case .exists: break
                case .promised: promised.insert(path)
                case .missing: throw StepError.missingFile(path: path, option: "assets")
                }
                assets.append(PublishAsset(path: path, name: option.name, label: option.label, contentType: option.contentType))
            }
        }
        var body = options.body
        if let bodyFile = options.bodyFile {
            let path = context.resolvePath(bodyFile)
            switch context.fileState(bodyFile) {
            case .exists:
                do {
                    body = try String(contentsOfFile: path, encoding: .utf8)
                } catch {
                    throw StepError.invalidOption("body_file", "cannot read '\(path)': \(error.localizedDescription)")
                }
            case .promised where !requireBody: break
            case .promised, .missing: throw StepError.missingFile(path: path, option: "body_file")
            }
        }
        let publication = ReleasePublication(
            repository: options.repo, tag: options.tag, name: options.name, body: body,
            generateNotes: options.generateNotes, targetCommitish: options.targetCommitish,
            draft: options.draft, prerelease: options.prerelease, makeLatest: options.makeLatest?.text,
            assets: assets, replace: replace, concurrency: options.concurrency
        )
        return (publication, promised)
    }

    /// A ``StepError`` with the error's message, masked.
    static func stepError(_ error: any Error, _ context: StepContext) -> any Error {
        if error is CancellationError || error is StepError { return error }
        return StepError.failed(context.masker.mask("\(error)"))
    }
}
