import Foundation

/// A release asset as the local GitHub server stores it; its bytes live in the storage folder.
package struct LocalReleaseAsset: Sendable, Codable, Equatable {
    package var id: Int
    package var releaseID: Int
    package var name: String
    package var label: String?
    package var contentType: String
    /// Bytes stored; 0 while `starter`.
    package var size: Int64
    /// `starter` while uploading or after a broken upload, `uploaded` when complete.
    package var state: String
    /// `sha256:<hex>` once uploaded.
    package var digest: String?
    package var createdAt: Date
}
