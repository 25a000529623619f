/// The writable fields of a release, for create and update. Nil fields are left out of the request.
package struct GitHubReleaseFields: Sendable, Encodable, Equatable {
    package var tagName: String?
    package var targetCommitish: String?
    package var name: String?
    package var body: String?
    package var draft: Bool?
    package var prerelease: Bool?
    package var generateReleaseNotes: Bool?
    /// `true`, `false` or `legacy`.
    package var makeLatest: String?

    enum CodingKeys: String, CodingKey {
        case name, body, draft, prerelease
        case tagName = "tag_name"
        case targetCommitish = "target_commitish"
        case generateReleaseNotes = "generate_release_notes"
        case makeLatest = "make_latest"
    }

    package init(
        tagName: String? = nil, targetCommitish: String? = nil, name: String? = nil, body: String? = nil,
        draft: Bool? = nil, prerelease: Bool? = nil, generateReleaseNotes: Bool? = nil, makeLatest: String? = nil
    ) {
        self.tagName = tagName
        self.targetCommitish = targetCommitish
        self.name = name
        self.body = body
        self.draft = draft
        self.prerelease = prerelease
        self.generateReleaseNotes = generateReleaseNotes
        self.makeLatest = makeLatest
    }
}
