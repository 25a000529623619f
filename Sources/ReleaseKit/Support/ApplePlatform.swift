/// An Apple platform an app builds for, with the word each tool spells it with.
///
/// The cases are what people type (`release init --platform tvOS`) and what `xcodebuild -destination` takes. Every
/// other tool has its own words (``ApplePlatformSpelling``): App Store Connect's `Platform` (`TV_OS`),
/// iTMSTransporter's `app_platform` (`appletvos`), altool's `-t`, `signing.sync`'s `platform` and so on. Each has a
/// property that writes it and a failable initialiser that reads it back; a tool with no word of its own for a
/// platform spells it as the one it treats it as (watchOS apps upload to App Store Connect as `IOS`), and that
/// word reads back as that platform.
package enum ApplePlatform: String, Sendable, Hashable, CaseIterable, Comparable {
    case iOS, tvOS, macOS, visionOS, watchOS

    /// From a target's `SDKROOT` (`iphoneos`, `appletvos`, `macosx`, `xros`, `watchos`, or an SDK path or versioned
    /// name such as `iphoneos17.0`); nil for anything else.
    package init?(sdk: String) {
        let name = (sdk.split(separator: "/").last.map(String.init) ?? sdk).lowercased()
        guard let match = Self.allCases.first(where: { name.hasPrefix($0.sdkPrefix) }) else { return nil }
        self = match
    }

    /// From what a user types for `--platform` (`ios`, `tvOS`, `macos`, `visionos`), case-insensitively.
    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// From `word` as `Spelling` spells platforms, exactly; nil for a word it has not.
    package init?<Spelling: ApplePlatformSpelling>(_ word: String, as spelling: Spelling.Type) {
        guard let match = Spelling.platforms.first(where: { Spelling.word(for: $0) == word }) else { return nil }
        self = match
    }

    /// The platform as `Spelling` spells it.
    package func word<Spelling: ApplePlatformSpelling>(as spelling: Spelling.Type) -> String {
        Spelling.word(for: self)
    }

    /// The name people type and read: `iOS`, `tvOS`, `macOS`, `visionOS`, `watchOS`.
    package var name: String { rawValue }

    /// The SDK's name without a version (`iphoneos`, `appletvos`, `macosx`, `xros`, `watchos`).
    package var sdk: String {
        switch self {
        case .iOS: "iphoneos"
        case .tvOS: "appletvos"
        case .macOS: "macosx"
        case .visionOS: "xros"
        case .watchOS: "watchos"
        }
    }

    /// What ``init(sdk:)`` looks for at the start of an SDK's name: its family, so that `iphonesimulator` and
    /// `xrsimulator` are the platform too.
    private var sdkPrefix: String {
        switch self {
        case .iOS: "iphone"
        case .tvOS: "appletv"
        case .macOS: "macosx"
        case .visionOS: "xr"
        case .watchOS: "watch"
        }
    }

    /// `xcodebuild -destination` for an archive.
    package var destination: String { "generic/platform=\(rawValue)" }

    /// App Store Connect's `Platform` (`IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`; watchOS apps are `IOS` there).
    package var appStoreConnect: String { word(as: AppStoreConnectSpelling.self) }

    /// From App Store Connect's `Platform`.
    package init?(appStoreConnect word: String) { self.init(word, as: AppStoreConnectSpelling.self) }

    /// App Store Connect's `BundleIdPlatform` of the app's bundle ids (`IOS`, `MAC_OS`; tvOS, visionOS and watchOS
    /// apps are `IOS` there).
    package var bundleIDPlatform: String { word(as: BundleIDSpelling.self) }

    /// From App Store Connect's `BundleIdPlatform` (not `UNIVERSAL`, which is no one platform).
    package init?(bundleIDPlatform word: String) { self.init(word, as: BundleIDSpelling.self) }

    /// `signing.sync`'s `platform`: ios, tvos or macos (watchOS and visionOS apps sign as iOS).
    package var signing: String { word(as: SigningSpelling.self) }

    /// From `signing.sync`'s `platform`.
    package init?(signing word: String) { self.init(word, as: SigningSpelling.self) }

    /// The platform whose certificates, profiles and devices sign this one's apps: itself, or iOS for watchOS and
    /// visionOS.
    package var signingPlatform: ApplePlatform { ApplePlatform(signing: signing) ?? .iOS }

    /// iTMSTransporter's `app_platform` in `metadata.xml`: ios, osx, appletvos or xros.
    package var transporter: String { word(as: TransporterSpelling.self) }

    /// From iTMSTransporter's `app_platform`.
    package init?(transporter word: String) { self.init(word, as: TransporterSpelling.self) }

    /// `xcrun altool -t`: ios, appletvos, visionos or macos.
    package var altool: String { word(as: AltoolSpelling.self) }

    /// From `xcrun altool -t`.
    package init?(altool word: String) { self.init(word, as: AltoolSpelling.self) }

    /// Crashlytics' `upload-symbols -p`: ios, mac or tvos.
    package var crashlytics: String { word(as: CrashlyticsSpelling.self) }

    /// From Crashlytics' `upload-symbols -p`.
    package init?(crashlytics word: String) { self.init(word, as: CrashlyticsSpelling.self) }

    /// An app's `CFBundleSupportedPlatforms` entry: iPhoneOS, AppleTVOS, MacOSX, XROS or WatchOS.
    package var bundleSupportedPlatform: String { word(as: BundleSupportedPlatformSpelling.self) }

    /// From an `CFBundleSupportedPlatforms` entry (not a simulator's, `iPhoneSimulator`).
    package init?(bundleSupportedPlatform word: String) { self.init(word, as: BundleSupportedPlatformSpelling.self) }

    /// iOS first, the order `release init` offers apps in.
    package static func < (lhs: ApplePlatform, rhs: ApplePlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
