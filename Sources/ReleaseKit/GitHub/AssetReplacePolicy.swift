/// What the publisher does when a remote asset has the same name as a local one but different content.
package enum AssetReplacePolicy: String, Sendable, Codable, CaseIterable {
    /// Stop with an error naming the asset (the default: a release is a record, not a cache).
    case fail
    /// Delete the remote asset and upload the local one.
    case replace
    /// Keep the remote asset and warn.
    case skip
}
