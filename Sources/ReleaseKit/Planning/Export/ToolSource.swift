import Foundation
import ReleaseHTTP
import ReleasePipeline
import ReleaseSupport

/// Where an exported CI job gets `release` from: `--tool-source`, or the pipeline's `tool` block.
///
/// The default is the packaged binaries `Pipelines/self.json` publishes for this very version
/// (``ReleaseKitVersion/repository``'s GitHub Release `vVERSION`, the repository `scripts/package.sh` stamps into the
/// binary), pinned: the workflow carries the SHA-256 of each platform's tarball and checks it before anything runs. A
/// build without a stamped repository has no default, and says what to pass (``missingRepository``). The other sources build or install from elsewhere and say
/// what they pin in the workflow's header.
package enum ToolSource: Sendable, Equatable {
    /// A tarball per platform, downloaded from `url` (`{version}` and `{platform}` substituted) and checked against
    /// `sha256` (platform → digest, lower-case hex).
    case download(url: String, version: String, sha256: [String: String])
    /// `brew install TAP/FORMULA` after `brew tap TAP`: the tap pins the version.
    case homebrew(tap: String, formula: String)
    /// `mint install PACKAGE@VERSION`, with Mint's folder cached between runs.
    case mint(package: String, version: String)
    /// A SwiftPM build of `tag` of the git repository `repository`, its product cached per tag and runner.
    case swiftpm(repository: String, tag: String)

    /// The platforms the packaged tarballs are built for (`scripts/package.sh`), in the order a workflow lists them.
    package static let platforms = ["linux-x86_64", "linux-arm64", "darwin-universal"]

    /// The URL pattern of the tarballs `release` publishes in the GitHub repository `repository` (OWNER/NAME).
    package static func publishedURL(in repository: String) -> String {
        "https://github.com/\(repository)/releases/download/v{version}/release-{version}-{platform}.tar.gz"
    }

    /// The URL pattern of the published tarballs of this build of `release`: nil when it was built without a
    /// repository stamped in (``ReleaseKitVersion/repository``).
    package static var defaultURL: String? { ReleaseKitVersion.repository.map(publishedURL(in:)) }

    /// The tarballs of this version of `release` published in `repository`, with the digests still to pin
    /// (``pinning(_:)``).
    package static func published(in repository: String) -> ToolSource {
        .download(url: publishedURL(in: repository), version: ReleaseKitVersion.string, sha256: [:])
    }

    /// The published tarballs of this version of `release`, from the repository stamped in at packaging time; nil
    /// when none was (a build from source): an export then needs `--tool-source` or a `tool` block
    /// (``missingRepository``).
    package static var `default`: ToolSource? { ReleaseKitVersion.repository.map(published(in:)) }

    /// Why an export without `--tool-source` or a `tool` block cannot say where the jobs get `release`, and what to
    /// pass instead.
    package static let missingRepository =
        "this build of release does not know the repository it is published in (scripts/package.sh stamps "
        + "it from the origin remote or RELEASE_REPOSITORY), so it cannot say where the jobs download it from: pass --tool-source "
        + "download:https://github.com/OWNER/NAME/releases/download/v{version}/release-{version}-{platform}.tar.gz (or homebrew:OWNER/TAP, "
        + "mint:OWNER/NAME@VERSION, swiftpm:GIT-URL@TAG), or add a \"tool\" block to the pipeline such as "
        + "{\"source\": \"download\", \"url\": \"https://github.com/OWNER/NAME/releases/download/v{version}/release-{version}-{platform}.tar.gz\"}"

    /// The source's name as `--tool-source` and the `tool` block spell it.
    package var name: String {
        switch self {
        case .download: "download"
        case .homebrew: "homebrew"
        case .mint: "mint"
        case .swiftpm: "swiftpm"
        }
    }

    /// The SHA256SUMS published beside the tarballs (nil for sources that are not downloads): the URL's folder.
    package var checksumsURL: String? {
        guard case .download(let url, let version, _) = self else { return nil }
        let expanded = url.replacingOccurrences(of: "{version}", with: version)
        guard let slash = expanded.lastIndex(of: "/") else { return nil }
        return expanded[...slash] + "SHA256SUMS"
    }

    /// This source with the digests of a SHA256SUMS file pinned (only those of ``platforms``, matched by tarball name).
    /// - Throws: ``UsageError`` when the file names none of them.
    package func pinning(_ sums: String) throws -> ToolSource {
        guard case .download(let url, let version, _) = self else { return self }
        var pinned: [String: String] = [:]
        for line in sums.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard fields.count == 2, Self.isDigest(fields[0]) else { continue }
            let file = fields[1].hasPrefix("*") ? String(fields[1].dropFirst()) : fields[1].trimmingCharacters(in: .whitespaces)
            for platform in Self.platforms where file == Self.tarballName(url: url, version: version, platform: platform) {
                pinned[platform] = fields[0].lowercased()
            }
        }
        guard !pinned.isEmpty else {
            let names = Self.platforms.map { Self.tarballName(url: url, version: version, platform: $0) }
            throw UsageError("the SHA256SUMS of release \(version) lists none of \(names.joined(separator: ", "))")
        }
        return .download(url: url, version: version, sha256: pinned)
    }

    /// The file name a platform's tarball has in `url` (its last path component).
    static func tarballName(url: String, version: String, platform: String) -> String {
        let expanded = url.replacingOccurrences(of: "{version}", with: version).replacingOccurrences(of: "{platform}", with: platform)
        return String(expanded.split(separator: "/").last ?? "")
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }

    /// A version or tag: what may stand in a URL, a file name and a cache key without quoting.
    static func isVersion(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.first != "-"
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".+-_".unicodeScalars.contains($0) }
    }

    /// `OWNER/NAME` of a tap or a Mint package: GitHub's characters only.
    static func isRepositoryName(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.first != "-"
                    && part.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
            }
    }

    /// Parses `--tool-source`: `download` (the default URL), `download:URL`, `homebrew:OWNER/TAP[/FORMULA]`,
    /// `mint:OWNER/NAME[@VERSION]`, `swiftpm:GIT-URL[@TAG]`. Versions default to this release's.
    /// - Throws: ``UsageError`` naming the value.
    package static func parse(_ text: String) throws -> ToolSource {
        let (kind, rest): (String, String?) = {
            guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]))
        }()
        let version = ReleaseKitVersion.string
        let source: ToolSource
        switch kind {
        case "download":
            guard let url = rest ?? defaultURL else { throw UsageError("--tool-source download: " + missingRepository) }
            source = .download(url: url, version: version, sha256: [:])
        case "homebrew":
            guard let rest else { throw UsageError("--tool-source homebrew needs a tap: homebrew:OWNER/TAP[/FORMULA]") }
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else { throw UsageError("--tool-source '\(text)': write homebrew:OWNER/TAP or homebrew:OWNER/TAP/FORMULA") }
            source = .homebrew(tap: parts[0] + "/" + parts[1], formula: parts.count == 3 ? parts[2] : "release")
        case "mint":
            guard let rest else { throw UsageError("--tool-source mint needs a package: mint:OWNER/NAME[@VERSION]") }
            let parts = rest.split(separator: "@", maxSplits: 1).map(String.init)
            source = .mint(package: parts[0], version: parts.count == 2 ? parts[1] : version)
        case "swiftpm":
            guard let rest else { throw UsageError("--tool-source swiftpm needs a git URL: swiftpm:URL[@TAG]") }
            // The tag follows the last '@' after the URL's path starts (git@host:... URLs hold one before it).
            if let at = rest.lastIndex(of: "@"), rest[..<at].contains("/") {
                source = .swiftpm(repository: String(rest[..<at]), tag: String(rest[rest.index(after: at)...]))
            } else {
                source = .swiftpm(repository: rest, tag: "v" + version)
            }
        default:
            throw UsageError(
                "unknown --tool-source '\(text)'" + Suggestion.hint(for: kind, in: ["download", "homebrew", "mint", "swiftpm"])
                    + "; write download[:URL], homebrew:OWNER/TAP[/FORMULA], mint:OWNER/NAME[@VERSION] or swiftpm:GIT-URL[@TAG]")
        }
        try source.check(where: "--tool-source")
        return source
    }

    /// Rejects values that could not stand in a workflow safely or could not work: each one names `place`.
    /// - Throws: ``UsageError``.
    package func check(where place: String) throws {
        if let problem { throw UsageError("\(place): \(problem.message)") }
    }

    /// The first value that could not stand in a workflow safely or could not work: the `tool` block's key that holds
    /// it (`sha256.PLATFORM` for a digest), and what is wrong.
    var problem: (key: String, message: String)? {
        switch self {
        case .download(let url, let version, let sha256):
            guard url.hasPrefix("https://") || url.hasPrefix("http://") || url.hasPrefix("file:///") else {
                return ("url", "the download URL must start with https:// (or http:// or file:/// for a mirror of your own), found '\(Echo.text(url))'")
            }
            guard url.contains("{platform}") else {
                return ("url", "the download URL must name the platform with {platform} (one of \(Self.platforms.joined(separator: ", "))), found '\(Echo.text(url))'")
            }
            guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
                return ("url", "the download URL holds a space or a control character")
            }
            guard Self.isVersion(version) else { return ("version", "version '\(Echo.text(version))' must be letters, digits and . + - _") }
            for (platform, digest) in sha256.sorted(by: { $0.key < $1.key }) {
                if let problem = Self.digestProblem(platform: platform, digest: digest) { return ("sha256." + platform, problem) }
            }
        case .homebrew(let tap, let formula):
            guard Self.isRepositoryName(tap) else { return ("tap", "tap '\(Echo.text(tap))' must be OWNER/NAME") }
            guard Self.isVersion(formula) else { return ("formula", "formula '\(Echo.text(formula))' must be letters, digits and . + - _") }
        case .mint(let package, let version):
            guard Self.isRepositoryName(package) else { return ("package", "Mint package '\(Echo.text(package))' must be OWNER/NAME") }
            guard Self.isVersion(version) else { return ("version", "version '\(Echo.text(version))' must be letters, digits and . + - _") }
        case .swiftpm(let repository, let tag):
            guard repository.hasPrefix("https://") || repository.hasPrefix("git@") || repository.hasPrefix("ssh://") || repository.hasPrefix("file://") else {
                return ("repository", "the git URL must start with https://, ssh://, git@ or file://, found '\(Echo.text(repository))'")
            }
            guard !repository.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
                return ("repository", "the git URL holds a space or a control character")
            }
            guard Self.isVersion(tag) else { return ("tag", "tag '\(Echo.text(tag))' must be letters, digits and . + - _") }
        }
        return nil
    }

    /// What is wrong with one entry of a download's `sha256`, if anything.
    static func digestProblem(platform: String, digest: String) -> String? {
        guard platforms.contains(platform) else {
            return "unknown platform '\(Echo.text(platform))' in sha256" + Suggestion.hint(for: platform, in: platforms)
                + "; platforms: \(platforms.joined(separator: ", "))"
        }
        guard isDigest(digest) else { return "sha256 of \(platform) must be 64 hexadecimal digits, found '\(Echo.text(digest))'" }
        return nil
    }

    /// Reads the pipeline's `tool` block: `{"source": "download", "url": ..., "version": ..., "sha256": {PLATFORM: DIGEST}}`,
    /// `{"source": "homebrew", "tap": ..., "formula": ...}`, `{"source": "mint", "package": ..., "version": ...}` or
    /// `{"source": "swiftpm", "repository": ..., "tag": ...}`; what is left out takes the defaults `--tool-source` has.
    /// - Throws: ``PipelineError`` (exit 65: the pipeline's content is invalid) with a diagnostic naming the file, the
    ///   line and the JSON path (`$.tool.sha256.linux-x86`).
    package static func decode(_ node: JSONNode, file: String) throws -> ToolSource {
        let allowed: [String: [String]] = [
            "download": ["url", "version", "sha256"], "homebrew": ["tap", "formula"],
            "mint": ["package", "version"], "swiftpm": ["repository", "tag"],
        ]
        let root = JSONPath.root.appending("tool")
        func invalid(_ message: String, at node: JSONNode, _ path: JSONPath) -> PipelineError {
            .invalid([Diagnostic(file: file, location: node.location, path: path, message: message)])
        }
        func string(_ key: String) throws -> String? {
            guard let value = node[key] else { return nil }
            guard let text = value.string else { throw invalid("'\(key)' must be a string, found \(value.found)", at: value, root.appending(key)) }
            return text
        }
        guard let kind = try string("source") else {
            throw invalid("missing 'source' (one of download, homebrew, mint, swiftpm)", at: node, root)
        }
        guard let keys = allowed[kind] else {
            throw invalid(
                "unknown source '\(Echo.text(kind))'" + Suggestion.hint(for: kind, in: allowed.keys.sorted())
                    + "; sources: download, homebrew, mint, swiftpm", at: node["source"] ?? node, root.appending("source"))
        }
        for member in node.members ?? [] where member.key != "source" && !keys.contains(member.key) {
            throw PipelineError.invalid([
                Diagnostic(
                    file: file, location: member.keyLocation, path: root.appending(member.key),
                    message: "'\(Echo.text(member.key))' does not apply to source '\(kind)'; it takes \(keys.joined(separator: ", "))")
            ])
        }
        let version = try string("version") ?? ReleaseKitVersion.string
        let source: ToolSource
        switch kind {
        case "download":
            var sha256: [String: String] = [:]
            if let table = node["sha256"] {
                guard let members = table.members else {
                    throw invalid("'sha256' must be an object of platform and SHA-256, found \(table.found)", at: table, root.appending("sha256"))
                }
                for member in members {
                    guard let digest = member.value.string else {
                        throw invalid(
                            "the SHA-256 of \(Echo.text(member.key)) must be a string, found \(member.value.found)", at: member.value,
                            root.appending("sha256").appending(member.key))
                    }
                    if let problem = digestProblem(platform: member.key, digest: digest) {
                        throw invalid(problem, at: member.value, root.appending("sha256").appending(member.key))
                    }
                    sha256[member.key] = digest.lowercased()
                }
            }
            guard let url = try string("url") ?? defaultURL else { throw invalid("missing 'url': " + missingRepository, at: node, root) }
            source = .download(url: url, version: version, sha256: sha256)
        case "homebrew":
            guard let tap = try string("tap") else { throw invalid("source homebrew needs 'tap' (OWNER/NAME)", at: node, root) }
            source = .homebrew(tap: tap, formula: try string("formula") ?? "release")
        case "mint":
            guard let package = try string("package") ?? ReleaseKitVersion.repository else {
                throw invalid("source mint needs 'package' (OWNER/NAME): this build of release does not know the repository it is published in", at: node, root)
            }
            source = .mint(package: package, version: version)
        default:
            guard let repository = try string("repository") else { throw invalid("source swiftpm needs 'repository' (a git URL)", at: node, root) }
            source = .swiftpm(repository: repository, tag: try string("tag") ?? "v" + ReleaseKitVersion.string)
        }
        if let problem = source.problem {
            // The value's own place when the block gives it; the block's when it is a default.
            var value: JSONNode? = node
            var path = root
            for part in problem.key.split(separator: ".", maxSplits: 1).map(String.init) {
                value = value?[part]
                path = path.appending(part)
            }
            throw invalid(problem.message, at: value ?? node, value == nil ? root : path)
        }
        return source
    }

    /// This source with its digests pinned: for a download without `sha256`, the SHA256SUMS published beside the
    /// tarballs (``checksumsURL``), fetched through `client` (redirects followed, as GitHub's release downloads need;
    /// no credential is sent); other sources as they are.
    /// - Throws: ``UsageError`` naming the URL when the file cannot be fetched or lists no tarball.
    package func pinned(using client: HTTPClient) async throws -> ToolSource {
        guard case .download(_, let version, let sha256) = self, sha256.isEmpty, var url = checksumsURL else { return self }
        let first = url
        if url.hasPrefix("file://") {
            let path = String(url.dropFirst("file://".count))
            guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
                throw UsageError("cannot pin release \(version): cannot read '\(path)'")
            }
            return try pinning(String(decoding: data, as: UTF8.self))
        }
        for _ in 0..<6 {
            // Digests pinned from a file anyone on the way could change pin nothing: https only (a loopback address,
            // where tests serve it, excepted).
            if !Self.isSecureForPinning(url) {
                throw UsageError(
                    "cannot pin release \(version): \(HTTPRequest.redact(url)) is plain http, which anyone on the way can change; give the digests in the pipeline's tool block (\"sha256\": {\"linux-x86_64\": ...}) or an https URL"
                )
            }
            let response: HTTPResponse
            do {
                response = try await client.send(HTTPRequest(url: url, maxResponseBytes: 1 << 20))
            } catch {
                throw UsageError(
                    "cannot pin release \(version): fetching \(HTTPRequest.redact(first)) failed: \(error); give the digests in the pipeline's tool block (\"sha256\": {\"linux-x86_64\": ...}) or another --tool-source"
                )
            }
            if (300..<400).contains(response.status), let location = response.headers.first(where: { $0.name.lowercased() == "location" })?.value,
                let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString
            {
                url = next
                continue
            }
            guard response.status == 200 else {
                throw UsageError(
                    "cannot pin release \(version): \(HTTPRequest.redact(first)) answered HTTP \(response.status); give the digests in the pipeline's tool block (\"sha256\": {\"linux-x86_64\": ...}) or another --tool-source"
                )
            }
            return try pinning(String(decoding: response.body, as: UTF8.self))
        }
        throw UsageError("cannot pin release \(version): \(HTTPRequest.redact(first)) redirects too often")
    }

    /// Whether `url` may carry the digests that are pinned: https, or http to a loopback address.
    static func isSecureForPinning(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return false }
        if scheme == "https" { return true }
        guard scheme == "http", let host = components.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
