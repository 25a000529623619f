import ReleaseArtifacts

/// The platform `signing.sync` signs for, and App Store Connect's names for its profile, certificate, bundle id and
/// device kinds there.
package enum SigningPlatform: String, Sendable, CaseIterable {
    case ios
    case tvos
    case macos

    /// `Profile.profileType` for a profile of `type` (`IOS_APP_STORE` and friends); nil when the platform has no such
    /// profile (ad hoc and in-house profiles for macOS).
    package func profileType(_ type: ProvisioningProfile.ProfileType) -> String? {
        switch (self, type) {
        case (.ios, .appStore): return "IOS_APP_STORE"
        case (.ios, .adHoc): return "IOS_APP_ADHOC"
        case (.ios, .development): return "IOS_APP_DEVELOPMENT"
        case (.ios, .enterprise): return "IOS_APP_INHOUSE"
        case (.tvos, .appStore): return "TVOS_APP_STORE"
        case (.tvos, .adHoc): return "TVOS_APP_ADHOC"
        case (.tvos, .development): return "TVOS_APP_DEVELOPMENT"
        case (.tvos, .enterprise): return "TVOS_APP_INHOUSE"
        case (.macos, .appStore): return "MAC_APP_STORE"
        case (.macos, .development): return "MAC_APP_DEVELOPMENT"
        case (.macos, .adHoc), (.macos, .enterprise): return nil
        }
    }

    /// The certificate types that sign profiles of `type`: the current (Apple Distribution, Apple Development) first,
    /// which is the one created, then the older per-platform ones, which are found and used too.
    package func certificateTypes(_ type: ProvisioningProfile.ProfileType) -> [String] {
        switch (self, type) {
        case (.macos, .development): return ["DEVELOPMENT", "MAC_APP_DEVELOPMENT"]
        case (.macos, _): return ["DISTRIBUTION", "MAC_APP_DISTRIBUTION"]
        case (_, .development): return ["DEVELOPMENT", "IOS_DEVELOPMENT"]
        default: return ["DISTRIBUTION", "IOS_DISTRIBUTION"]
        }
    }

    /// `BundleIdPlatform` of the app's bundle ids (tvOS apps are `IOS` there).
    package var bundleIDPlatform: String { self == .macos ? "MAC_OS" : "IOS" }

    /// The device classes whose devices a development or ad hoc profile of this platform lists.
    package var deviceClasses: Set<String> {
        switch self {
        case .ios: return ["IPHONE", "IPAD", "IPOD", "APPLE_WATCH", "APPLE_VISION_PRO"]
        case .tvos: return ["APPLE_TV"]
        case .macos: return ["MAC"]
        }
    }
}
