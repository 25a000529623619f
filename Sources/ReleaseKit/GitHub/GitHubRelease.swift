/// A release as the Releases API returns it (the fields the publisher uses).
package struct GitHubRelease: Sendable, Decodable, Equatable {
    package var id: Int
    package var tagName: String
    package var name: String?
    package var body: String?
    package var draft: Bool
    package var prerelease: Bool
    package var targetCommitish: String?
    package var url: String
    package var htmlURL: String
    /// RFC 6570 template, for example `https://uploads.github.com/repos/o/r/releases/1/assets{?name,label}`.
    package var uploadURL: String
    package var assets: [GitHubReleaseAsset]?
    /// Published immutable releases refuse asset changes.
    package var immutable: Bool?

    enum CodingKeys: String, CodingKey {
        case id, name, body, draft, prerelease, url, assets, immutable
        case tagName = "tag_name"
        case targetCommitish = "target_commitish"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }

    package init(
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
    package var isImmutable: Bool { (immutable ?? false) && !draft }
}
