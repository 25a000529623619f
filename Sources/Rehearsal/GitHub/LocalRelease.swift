import Foundation

/// A release as the local GitHub server stores it.
package struct LocalRelease: Sendable, Codable, Equatable {
    package var id: Int
    /// `owner/name`.
    package var repository: String
    package var tagName: String
    package var name: String?
    package var body: String?
    package var targetCommitish: String
    package var draft: Bool
    package var prerelease: Bool
    package var makeLatest: String?
    /// Published with immutable releases on: assets can no longer change.
    package var immutable: Bool
    package var createdAt: Date
    package var publishedAt: Date?
}
