import Foundation

/// A release asset as the local GitHub server stores it; its bytes live in the storage folder.
public struct LocalReleaseAsset: Sendable, Codable, Equatable {
    public var id: Int
    public var releaseID: Int
    public var name: String
    public var label: String?
    public var contentType: String
    /// Bytes stored; 0 while `starter`.
    public var size: Int64
    /// `starter` while uploading or after a broken upload, `uploaded` when complete.
    public var state: String
    /// `sha256:<hex>` once uploaded.
    public var digest: String?
    public var createdAt: Date
}
