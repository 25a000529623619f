/// A release as the Releases API returns it (the fields the publisher uses).
public struct GitHubRelease: Sendable, Decodable, Equatable {
    public var id: Int
    public var tagName: String
    public var name: String?
    public var body: String?
    public var draft: Bool
    public var prerelease: Bool
    public var targetCommitish: String?
    public var url: String
    public var htmlURL: String
    /// RFC 6570 template, for example `https://uploads.github.com/repos/o/r/releases/1/assets{?name,label}`.
    public var uploadURL: String
    public var assets: [GitHubReleaseAsset]?
    /// Published immutable releases refuse asset changes.
    public var immutable: Bool?

    enum CodingKeys: String, CodingKey {
        case id, name, body, draft, prerelease, url, assets, immutable
        case tagName = "tag_name"
        case targetCommitish = "target_commitish"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }

    public init(
        id: Int, tagName: String, name: String? = nil, body: String? = nil, draft: Bool = false,
        prerelease: Bool = false, targetCommitish: String? = nil, url: String = "", htmlURL: String = "",
        uploadURL: String = "", assets: [GitHubReleaseAsset]? = nil, immutable: Bool? = nil
    ) {
        self.id = id
        self.tagName = tagName
        self.name = name
        self.body = body
        self.draft = draft
        self.prerelease = prerelease
        self.targetCommitish = targetCommitish
        self.url = url
        self.htmlURL = htmlURL
        self.uploadURL = uploadURL
        self.assets = assets
        self.immutable = immutable
    }

    /// Whether assets can no longer change.
    public var isImmutable: Bool { (immutable ?? false) && !draft }
}
