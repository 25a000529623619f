extension ApplePlatform {
    /// App Store Connect's `Platform` (its API and webhooks): IOS, MAC_OS, TV_OS, VISION_OS.
    package enum AppStoreConnectSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .macOS, .tvOS, .visionOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .iOS, .watchOS: "IOS"
            case .macOS: "MAC_OS"
            case .tvOS: "TV_OS"
            case .visionOS: "VISION_OS"
            }
        }
    }

    /// App Store Connect's `BundleIdPlatform`: IOS, MAC_OS (bundle ids of tvOS, visionOS and watchOS apps are IOS).
    package enum BundleIDSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .macOS]
        package static func word(for platform: ApplePlatform) -> String { platform == .macOS ? "MAC_OS" : "IOS" }
    }

    /// `signing.sync`'s `platform`: ios, tvos, macos (watchOS and visionOS apps sign with iOS profiles).
    package enum SigningSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .tvOS, .macOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .tvOS: "tvos"
            case .macOS: "macos"
            case .iOS, .watchOS, .visionOS: "ios"
            }
        }
    }

    /// iTMSTransporter's `app_platform` (`itmsp.package`): ios, osx, appletvos, xros.
    package enum TransporterSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .macOS, .tvOS, .visionOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .iOS, .watchOS: "ios"
            case .macOS: "osx"
            case .tvOS: "appletvos"
            case .visionOS: "xros"
            }
        }
    }

    /// `xcrun altool -t` (`appstore.validate`): ios, appletvos, visionos, macos.
    package enum AltoolSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .tvOS, .visionOS, .macOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .iOS, .watchOS: "ios"
            case .tvOS: "appletvos"
            case .visionOS: "visionos"
            case .macOS: "macos"
            }
        }
    }

    /// Crashlytics' `upload-symbols -p` (`dsym.upload`): ios, mac, tvos (visionOS and watchOS apps as ios).
    package enum CrashlyticsSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .macOS, .tvOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .iOS, .visionOS, .watchOS: "ios"
            case .macOS: "mac"
            case .tvOS: "tvos"
            }
        }
    }

    /// An app's Info.plist `CFBundleSupportedPlatforms`: iPhoneOS, AppleTVOS, MacOSX, XROS, WatchOS.
    package enum BundleSupportedPlatformSpelling: ApplePlatformSpelling {
        package static let platforms: [ApplePlatform] = [.iOS, .tvOS, .macOS, .visionOS, .watchOS]
        package static func word(for platform: ApplePlatform) -> String {
            switch platform {
            case .iOS: "iPhoneOS"
            case .tvOS: "AppleTVOS"
            case .macOS: "MacOSX"
            case .visionOS: "XROS"
            case .watchOS: "WatchOS"
            }
        }
    }
}
