/// What a publish ended with.
public struct PublishResult: Sendable, Equatable {
    /// The release as last seen (published unless the publication asked for a draft).
    public var release: GitHubRelease
    /// The remote asset for each local asset, in the publication's order.
    public var assets: [GitHubReleaseAsset]
    /// Names uploaded by this run.
    public var uploaded: [String]
    /// Names already up to date (or kept by `replace: skip`).
    public var skipped: [String]
    /// Asset bytes sent by this run, failed attempts included.
    public var bytesUploaded: Int64
    /// API requests made by this run, retries and uploads included.
    public var apiCalls: Int
}
