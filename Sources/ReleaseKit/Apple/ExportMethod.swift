import ReleaseArtifacts

/// ExportOptions.plist's `method`, under both the names Xcode used until 15 and the ones it uses since
/// (`xcodebuild -help`: "app-store (deprecated: use app-store-connect), ad-hoc (deprecated: use release-testing),
/// and development (deprecated: use debugging)").
package enum ExportMethod: String, Sendable, Equatable, CaseIterable {
    case appStore = "app-store"
    case appStoreConnect = "app-store-connect"
    case adHoc = "ad-hoc"
    case releaseTesting = "release-testing"
    case development
    case debugging
    case enterprise
    case developerID = "developer-id"

    /// The first Xcode written the new names. Xcode 15.3 and 15.4 accept both (the old ones with a deprecation
    /// notice), so the old names are kept through 15.x, where they are certain to work, and the new ones from 16.
    package static let newNamesSince = XcodeVersion(major: 16)

    /// The same method under the name `version` expects.
    package func name(for version: XcodeVersion) -> String {
        let modern = version >= Self.newNamesSince
        switch self {
        case .appStore, .appStoreConnect: return modern ? "app-store-connect" : "app-store"
        case .adHoc, .releaseTesting: return modern ? "release-testing" : "ad-hoc"
        case .development, .debugging: return modern ? "debugging" : "development"
        case .enterprise: return "enterprise"
        case .developerID: return "developer-id"
        }
    }

    /// The provisioning profile type the method signs with (nil for Developer ID, which uses none on iOS).
    package var profileType: ProvisioningProfile.ProfileType? {
        switch self {
        case .appStore, .appStoreConnect: return .appStore
        case .adHoc, .releaseTesting: return .adHoc
        case .development, .debugging: return .development
        case .enterprise: return .enterprise
        case .developerID: return nil
        }
    }
}
