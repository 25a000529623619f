/// What a release should look like once published: the input of ``ReleasePublisher``.
package struct ReleasePublication: Sendable, Equatable {
    /// GitHub allows at most this many characters in a release body.
    package static let maximumBodyLength = 125_000
    /// Assets must be smaller than 2 GiB.
    package static let maximumAssetSize: Int64 = 2 << 30

    /// `owner/name`.
    package var repository: String
    package var tag: String
    /// Defaults to the tag on GitHub's side when nil.
    package var name: String?
    package var body: String?
    /// Ask GitHub to generate the notes (when creating the release).
    package var generateNotes: Bool
    package var targetCommitish: String?
    /// Leave the release a draft.
    package var draft: Bool
    package var prerelease: Bool
    /// `true`, `false` or `legacy`.
    package var makeLatest: String?
    package var assets: [PublishAsset]
    package var replace: AssetReplacePolicy
    /// Uploads at once (at least 1).
    package var concurrency: Int

    package init(
        repository: String,
        tag: String,
        name: String? = nil,
        body: String? = nil,
        generateNotes: Bool = false,
        targetCommitish: String? = nil,
        draft: Bool = false,
        prerelease: Bool = false,
        makeLatest: String? = nil,
        assets: [PublishAsset] = [],
        replace: AssetReplacePolicy = .fail,
        concurrency: Int = 2
    ) {
        self.repository = repository
        self.tag = tag
        self.name = name
        self.body = body
        self.generateNotes = generateNotes
        self.targetCommitish = targetCommitish
        self.draft = draft
        self.prerelease = prerelease
        self.makeLatest = makeLatest
        self.assets = assets
        self.replace = replace
        self.concurrency = max(1, concurrency)
    }
}
