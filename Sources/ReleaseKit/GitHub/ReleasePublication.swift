/// What a release should look like once published: the input of ``ReleasePublisher``.
public struct ReleasePublication: Sendable, Equatable {
    /// GitHub allows at most this many characters in a release body.
    public static let maximumBodyLength = 125_000
    /// Assets must be smaller than 2 GiB.
    public static let maximumAssetSize: Int64 = 2 << 30

    /// `owner/name`.
    public var repository: String
    public var tag: String
    /// Defaults to the tag on GitHub's side when nil.
    public var name: String?
    public var body: String?
    /// Ask GitHub to generate the notes (when creating the release).
    public var generateNotes: Bool
    public var targetCommitish: String?
    /// Leave the release a draft.
    public var draft: Bool
    public var prerelease: Bool
    /// `true`, `false` or `legacy`.
    public var makeLatest: String?
    public var assets: [PublishAsset]
    public var replace: AssetReplacePolicy
    /// Uploads at once (at least 1).
    public var concurrency: Int

    public init(
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
