import ReleaseSupport

/// The platform as the values of Apple's contract that name it, so a request body carries a platform the contract
/// has by construction rather than by a check of its word.
extension ApplePlatform {
    /// App Store Connect's `Platform` (watchOS apps are `IOS` there).
    package var contractPlatform: Components.Schemas.Platform {
        switch self {
        case .iOS, .watchOS: .ios
        case .macOS: .macOs
        case .tvOS: .tvOs
        case .visionOS: .visionOs
        }
    }

    /// App Store Connect's `BundleIdPlatform` of the app's bundle ids.
    package var contractBundleIDPlatform: Components.Schemas.BundleIdPlatform {
        self == .macOS ? .macOs : .ios
    }
}
