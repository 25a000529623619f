/// What a publish ended with.
package struct PublishResult: Sendable, Equatable {
    /// The release as last seen (published unless the publication asked for a draft).
    package var release: GitHubRelease
    /// The remote asset for each local asset, in the publication's order.
    package var assets: [GitHubReleaseAsset]
    /// Names uploaded by this run.
    package var uploaded: [String]
    /// Names already up to date (or kept by `replace: skip`).
    package var skipped: [String]
    /// Asset bytes sent by this run, failed attempts included.
    package var bytesUploaded: Int64
    /// API requests made by this run, retries and uploads included.
    package var apiCalls: Int
}
