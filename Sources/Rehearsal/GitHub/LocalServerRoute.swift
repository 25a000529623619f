/// The Releases API endpoints the local GitHub server speaks.
package enum LocalServerRoute: String, Sendable, Equatable, CaseIterable {
    case user
    case repository
    case listReleases
    case createRelease
    case generateNotes
    case releaseByTag
    case getRelease
    case updateRelease
    case deleteRelease
    case listAssets
    case uploadAsset
    case getAsset
    case updateAsset
    case deleteAsset
    case download
    case unknown
}
