import ReleaseArtifacts
import ReleaseSupport

/// App Store Connect's names for the profile, certificate and device kinds that sign a platform's apps
/// (``ApplePlatform/signingPlatform``: watchOS and visionOS apps sign as iOS), for `signing.sync`.
extension ApplePlatform {
    /// `Profile.profileType` for a profile of `type` (`IOS_APP_STORE` and friends); nil when the platform has no such
    /// profile (ad hoc and in-house profiles for macOS).
    package func profileType(_ type: ProvisioningProfile.ProfileType) -> String? {
        switch (signingPlatform, type) {
        case (.macOS, .appStore): return "MAC_APP_STORE"
        case (.macOS, .development): return "MAC_APP_DEVELOPMENT"
        case (.macOS, .adHoc), (.macOS, .enterprise): return nil
        case (.tvOS, .appStore): return "TVOS_APP_STORE"
        case (.tvOS, .adHoc): return "TVOS_APP_ADHOC"
        case (.tvOS, .development): return "TVOS_APP_DEVELOPMENT"
        case (.tvOS, .enterprise): return "TVOS_APP_INHOUSE"
        case (_, .appStore): return "IOS_APP_STORE"
        case (_, .adHoc): return "IOS_APP_ADHOC"
        case (_, .development): return "IOS_APP_DEVELOPMENT"
        case (_, .enterprise): return "IOS_APP_INHOUSE"
        }
    }

    /// The certificate types that sign profiles of `type`: the current (Apple Distribution, Apple Development) first,
    /// which is the one created, then the older per-platform ones, which are found and used too.
    package func certificateTypes(_ type: ProvisioningProfile.ProfileType) -> [String] {
        switch (signingPlatform, type) {
        case (.macOS, .development): return ["DEVELOPMENT", "MAC_APP_DEVELOPMENT"]
        case (.macOS, _): return ["DISTRIBUTION", "MAC_APP_DISTRIBUTION"]
        case (_, .development): return ["DEVELOPMENT", "IOS_DEVELOPMENT"]
        default: return ["DISTRIBUTION", "IOS_DISTRIBUTION"]
        }
    }

    /// The device classes whose devices a development or ad hoc profile of this platform lists.
    package var deviceClasses: Set<String> {
        switch signingPlatform {
        case .tvOS: return ["APPLE_TV"]
        case .macOS: return ["MAC"]
        default: return ["IPHONE", "IPAD", "IPOD", "APPLE_WATCH", "APPLE_VISION_PRO"]
        }
    }
}
