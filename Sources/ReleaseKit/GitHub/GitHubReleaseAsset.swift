/// A release asset as the Releases API returns it.
package struct GitHubReleaseAsset: Sendable, Decodable, Equatable {
    package var id: Int
    package var name: String
    package var label: String?
    /// `uploaded`, or `starter` for an upload that has not completed.
    package var state: String
    package var size: Int64
    /// `sha256:<hex>`; absent on servers that predate asset digests.
    package var digest: String?
    package var contentType: String?
    package var url: String
    package var browserDownloadURL: String

    enum CodingKeys: String, CodingKey {
        case id, name, label, state, size, digest, url
        case contentType = "content_type"
        case browserDownloadURL = "browser_download_url"
    }

    package init(
        id: Int, name: String, label: String? = nil, state: String = "uploaded", size: Int64, digest: String? = nil,
        contentType: String? = nil, url: String = "", browserDownloadURL: String = ""
    ) {
        self.id = id
        self.name = name
        self.label = label
        self.state = state
        self.size = size
        self.digest = digest
        self.contentType = contentType
        self.url = url
        self.browserDownloadURL = browserDownloadURL
    }

    /// Whether this asset is complete and holds exactly `size` bytes with SHA-256 `sha256` (lower-case hex).
    /// Without a digest from the server, or without `sha256` (a file this run did not hash), only the size can
    /// be compared.
    package func matches(size expected: Int64, sha256: String?) -> Bool {
        guard state == "uploaded", size == expected else { return false }
        guard let digest, let sha256 else { return true }
        return digest.lowercased() == "sha256:" + sha256.lowercased()
    }
}
