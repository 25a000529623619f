import Foundation

/// Where an exported CI job gets `release` from: `--tool-source`, or the pipeline's `tool` block.
///
/// The default is the packaged binaries `Pipelines/self.json` publishes for this very version
/// (``ReleaseKitVersion/repository``'s GitHub Release `vVERSION`), pinned: the workflow carries the SHA-256 of each
/// platform's tarball and checks it before anything runs. The other sources build or install from elsewhere and say
/// what they pin in the workflow's header.
public enum ToolSource: Sendable, Equatable {
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
    public static let platforms = ["linux-x86_64", "linux-arm64", "darwin-universal"]

    /// The URL pattern of the published tarballs of `release` itself.
    public static var defaultURL: String {
        "https://github.com/\(ReleaseKitVersion.repository)/releases/download/v{version}/release-{version}-{platform}.tar.gz"
    }

    /// The published tarballs of this version of `release`, with the digests still to pin (``pinning(_:)``).
    public static var `default`: ToolSource { .download(url: defaultURL, version: ReleaseKitVersion.string, sha256: [:]) }

    /// The source's name as `--tool-source` and the `tool` block spell it.
    public var name: String {
        switch self {
        case .download: "download"
        case .homebrew: "homebrew"
        case .mint: "mint"
        case .swiftpm: "swiftpm"
        }
    }

    /// The SHA256SUMS published beside the tarballs (nil for sources that are not downloads): the URL's folder.
    public var checksumsURL: String? {
        guard case .download(let url, let version, _) = self else { return nil }
        let expanded = url.replacingOccurrences(of: "{version}", with: version)
        guard let slash = expanded.lastIndex(of: "/") else { return nil }
        return expanded[...slash] + "SHA256SUMS"
    }

    /// This source with the digests of a SHA256SUMS file pinned (only those of ``platforms``, matched by tarball name).
    /// - Throws: ``UsageError`` when the file names none of them.
    public func pinning(_ sums: String) throws -> ToolSource {
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
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.first != "-" && part.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
        }
    }

    /// Parses `--tool-source`: `download` (the default URL), `download:URL`, `homebrew:OWNER/TAP[/FORMULA]`,
    /// `mint:OWNER/NAME[@VERSION]`, `swiftpm:GIT-URL[@TAG]`. Versions default to this release's.
    /// - Throws: ``UsageError`` naming the value.
    public static func parse(_ text: String) throws -> ToolSource {
        let (kind, rest): (String, String?) = {
            guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]))
        }()
        let version = ReleaseKitVersion.string
        let source: ToolSource
        switch kind {
        case "download":
            source = .download(url: rest ?? defaultURL, version: version, sha256: [:])
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
            throw UsageError("unknown --tool-source '\(text)'" + Suggestion.hint(for: kind, in: ["download", "homebrew", "mint", "swiftpm"])
                + "; write download[:URL], homebrew:OWNER/TAP[/FORMULA], mint:OWNER/NAME[@VERSION] or swiftpm:GIT-URL[@TAG]")
        }
        try source.check(where: "--tool-source")
        return source
    }

    /// Rejects values that could not stand in a workflow safely or could not work: each one names `place`.
    public func check(where place: String) throws {
        switch self {
        case .download(let url, let version, let sha256):
            guard url.hasPrefix("https://") || url.hasPrefix("http://") || url.hasPrefix("file:///") else {
                throw UsageError("\(place): the download URL must start with https:// (or http:// or file:/// for a mirror of your own), found '\(Echo.text(url))'")
            }
            guard url.contains("{platform}") else {
                throw UsageError("\(place): the download URL must name the platform with {platform} (one of \(Self.platforms.joined(separator: ", "))), found '\(Echo.text(url))'")
            }
            guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
                throw UsageError("\(place): the download URL holds a space or a control character")
            }
            guard Self.isVersion(version) else { throw UsageError("\(place): version '\(Echo.text(version))' must be letters, digits and . + - _") }
            for (platform, digest) in sha256.sorted(by: { $0.key < $1.key }) {
                guard Self.platforms.contains(platform) else {
                    throw UsageError("\(place): unknown platform '\(Echo.text(platform))' in sha256" + Suggestion.hint(for: platform, in: Self.platforms)
                        + "; platforms: \(Self.platforms.joined(separator: ", "))")
                }
                guard Self.isDigest(digest) else { throw UsageError("\(place): sha256 of \(platform) must be 64 hexadecimal digits, found '\(Echo.text(digest))'") }
            }
        case .homebrew(let tap, let formula):
            guard Self.isRepositoryName(tap) else { throw UsageError("\(place): tap '\(Echo.text(tap))' must be OWNER/NAME") }
            guard Self.isVersion(formula) else { throw UsageError("\(place): formula '\(Echo.text(formula))' must be letters, digits and . + - _") }
        case .mint(let package, let version):
            guard Self.isRepositoryName(package) else { throw UsageError("\(place): Mint package '\(Echo.text(package))' must be OWNER/NAME") }
            guard Self.isVersion(version) else { throw UsageError("\(place): version '\(Echo.text(version))' must be letters, digits and . + - _") }
        case .swiftpm(let repository, let tag):
            guard repository.hasPrefix("https://") || repository.hasPrefix("git@") || repository.hasPrefix("ssh://") || repository.hasPrefix("file://") else {
                throw UsageError("\(place): the git URL must start with https://, ssh://, git@ or file://, found '\(Echo.text(repository))'")
            }
            guard !repository.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
                throw UsageError("\(place): the git URL holds a space or a control character")
            }
            guard Self.isVersion(tag) else { throw UsageError("\(place): tag '\(Echo.text(tag))' must be letters, digits and . + - _") }
        }
    }

    /// Reads the pipeline's `tool` block: `{"source": "download", "url": ..., "version": ..., "sha256": {PLATFORM: DIGEST}}`,
    /// `{"source": "homebrew", "tap": ..., "formula": ...}`, `{"source": "mint", "package": ..., "version": ...}` or
    /// `{"source": "swiftpm", "repository": ..., "tag": ...}`; what is left out takes the defaults `--tool-source` has.
    /// - Throws: ``UsageError`` naming the file, line and key.
    public static func decode(_ node: JSONNode, file: String) throws -> ToolSource {
        let allowed: [String: [String]] = ["download": ["url", "version", "sha256"], "homebrew": ["tap", "formula"],
                                           "mint": ["package", "version"], "swiftpm": ["repository", "tag"]]
        func at(_ node: JSONNode) -> String { "\(file):\(node.location.line): tool" }
        func string(_ key: String) throws -> String? {
            guard let value = node[key] else { return nil }
            guard let text = value.string else { throw UsageError("\(at(value)).\(key) must be a string, found \(value.found)") }
            return text
        }
        guard let kind = try string("source") else {
            throw UsageError("\(at(node)): missing 'source' (one of download, homebrew, mint, swiftpm)")
        }
        guard let keys = allowed[kind] else {
            throw UsageError("\(at(node)).source: unknown source '\(Echo.text(kind))'" + Suggestion.hint(for: kind, in: allowed.keys.sorted())
                + "; sources: download, homebrew, mint, swiftpm")
        }
        for member in node.members ?? [] where member.key != "source" && !keys.contains(member.key) {
            throw UsageError("\(file):\(member.keyLocation.line): tool: '\(Echo.text(member.key))' does not apply to source '\(kind)'; it takes \(keys.joined(separator: ", "))")
        }
        let version = try string("version") ?? ReleaseKitVersion.string
        let source: ToolSource
        switch kind {
        case "download":
            var sha256: [String: String] = [:]
            if let table = node["sha256"] {
                guard let members = table.members else { throw UsageError("\(at(table)).sha256 must be an object of platform and SHA-256, found \(table.found)") }
                for member in members {
                    guard let digest = member.value.string else { throw UsageError("\(at(member.value)).sha256.\(member.key) must be a string, found \(member.value.found)") }
                    sha256[member.key] = digest.lowercased()
                }
            }
            source = .download(url: try string("url") ?? defaultURL, version: version, sha256: sha256)
        case "homebrew":
            guard let tap = try string("tap") else { throw UsageError("\(at(node)): source homebrew needs 'tap' (OWNER/NAME)") }
            source = .homebrew(tap: tap, formula: try string("formula") ?? "release")
        case "mint":
            source = .mint(package: try string("package") ?? ReleaseKitVersion.repository, version: version)
        default:
            guard let repository = try string("repository") else { throw UsageError("\(at(node)): source swiftpm needs 'repository' (a git URL)") }
            source = .swiftpm(repository: repository, tag: try string("tag") ?? "v" + ReleaseKitVersion.string)
        }
        try source.check(where: at(node))
        return source
    }

    /// This source with its digests pinned: for a download without `sha256`, the SHA256SUMS published beside the
    /// tarballs (``checksumsURL``), fetched through `client` (redirects followed, as GitHub's release downloads need;
    /// no credential is sent); other sources as they are.
    /// - Throws: ``UsageError`` naming the URL when the file cannot be fetched or lists no tarball.
    public func pinned(using client: HTTPClient) async throws -> ToolSource {
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
            let response: HTTPResponse
            do {
                response = try await client.send(HTTPRequest(url: url, maxResponseBytes: 1 << 20))
            } catch {
                throw UsageError("cannot pin release \(version): fetching \(HTTPRequest.redact(first)) failed: \(error); give the digests in the pipeline's tool block (\"sha256\": {\"linux-x86_64\": ...}) or another --tool-source")
            }
            if (300..<400).contains(response.status), let location = response.headers.first(where: { $0.name.lowercased() == "location" })?.value,
               let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString {
                url = next
                continue
            }
            guard response.status == 200 else {
                throw UsageError("cannot pin release \(version): \(HTTPRequest.redact(first)) answered HTTP \(response.status); give the digests in the pipeline's tool block (\"sha256\": {\"linux-x86_64\": ...}) or another --tool-source")
            }
            return try pinning(String(decoding: response.body, as: UTF8.self))
        }
        throw UsageError("cannot pin release \(version): \(HTTPRequest.redact(first)) redirects too often")
    }
}
