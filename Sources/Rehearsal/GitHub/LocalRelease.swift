import Foundation

/// A release as the local GitHub server stores it.
public struct LocalRelease: Sendable, Codable, Equatable {
    public var id: Int
    /// `owner/name`.
    public var repository: String
    public var tagName: String
    public var name: String?
    public var body: String?
    public var targetCommitish: String
    public var draft: Bool
    public var prerelease: Bool
    public var makeLatest: String?
    /// Published with immutable releases on: assets can no longer change.
    public var immutable: Bool
    public var createdAt: Date
    public var publishedAt: Date?
}
