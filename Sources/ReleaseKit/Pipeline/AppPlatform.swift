/// The Apple platform an app target builds for, with the names each tool uses for it.
package enum AppPlatform: String, Sendable, Equatable, CaseIterable, Comparable {
    case iOS, tvOS, macOS, visionOS, watchOS

    /// From a target's `SDKROOT` (`iphoneos`, `appletvos`, `macosx`, `xros`, `watchos`, or an SDK path or versioned
    /// name such as `iphoneos17.0`); nil for anything else.
    package init?(sdk: String) {
        let name = (sdk.split(separator: "/").last.map(String.init) ?? sdk).lowercased()
        if name.hasPrefix("iphone") {
            self = .iOS
        } else if name.hasPrefix("appletv") {
            self = .tvOS
        } else if name.hasPrefix("macosx") {
            self = .macOS
        } else if name.hasPrefix("xr") {
            self = .visionOS
        } else if name.hasPrefix("watch") {
            self = .watchOS
        } else {
            return nil
        }
    }

    /// From what a user types for `--platform` (`ios`, `tvOS`, `macos`, `visionos`), case-insensitively.
    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// `xcodebuild -destination` for an archive.
    package var destination: String { "generic/platform=\(rawValue)" }

    /// App Store Connect's `Platform`.
    package var appStoreConnect: String {
        switch self {
        case .iOS, .watchOS: "IOS"
        case .tvOS: "TV_OS"
        case .macOS: "MAC_OS"
        case .visionOS: "VISION_OS"
        }
    }

    /// `signing.sync`'s `platform`: ios, tvos or macos (watch and visionOS apps sign as iOS).
    package var signingPlatform: String {
        switch self {
        case .tvOS: "tvos"
        case .macOS: "macos"
        case .iOS, .watchOS, .visionOS: "ios"
        }
    }

    /// iOS first, the order `release init` offers apps in.
    package static func < (lhs: AppPlatform, rhs: AppPlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
