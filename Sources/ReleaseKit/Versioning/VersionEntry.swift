/// One row of a ``VersionReport``: a target in one configuration, or a version file.
package struct VersionEntry: Sendable, Codable, Equatable {
    /// The target name (the file name for version files).
    package var target: String
    /// The build configuration; `nil` for version files.
    package var configuration: String?
    /// The target's product type; `nil` for version files.
    package var productType: String?
    /// The app that ships this target (an extension's or watch app's host), if any.
    package var host: String?
    /// The resolved `PRODUCT_BUNDLE_IDENTIFIER`.
    package var bundleIdentifier: String?
    /// The Info.plist, relative to the project folder, or `generated` for `GENERATE_INFOPLIST_FILE`.
    package var infoPlist: String?
    /// The resolved marketing version (`CFBundleShortVersionString`).
    package var version: String?
    /// Where the version's literal text is.
    package var versionDefinedAt: DefinitionLocation?
    /// The resolved build number (`CFBundleVersion`).
    package var build: String?
    /// Where the build number's literal text is.
    package var buildDefinedAt: DefinitionLocation?
    /// How the target is signed for a device build; only in `release version --json --signing`.
    package var signing: SigningSettings?

    /// Creates a value from its parts.
    package init(
        target: String, configuration: String?, productType: String?, host: String?, bundleIdentifier: String?,
        infoPlist: String?, version: String?, versionDefinedAt: DefinitionLocation?, build: String?, buildDefinedAt: DefinitionLocation?
    ) {
        self.target = target
        self.configuration = configuration
        self.productType = productType
        self.host = host
        self.bundleIdentifier = bundleIdentifier
        self.infoPlist = infoPlist
        self.version = version
        self.versionDefinedAt = versionDefinedAt
        self.build = build
        self.buildDefinedAt = buildDefinedAt
    }
}

/// The code-signing build settings of a target in one configuration, resolved through xcconfig `#include` chains for a
/// device build (conditional assignments such as `CODE_SIGN_IDENTITY[sdk=iphoneos*]` count).
package struct SigningSettings: Sendable, Codable, Equatable {
    /// `CODE_SIGN_STYLE`: `Automatic` or `Manual`, when set.
    package var style: String?
    /// `CODE_SIGN_IDENTITY`, when set (`Apple Distribution`, `iPhone Developer`, …).
    package var identity: String?
    /// `PROVISIONING_PROFILE_SPECIFIER`, else the older `PROVISIONING_PROFILE`, when set and not empty.
    package var profileSpecifier: String?
    /// Where the style is written (`Configuration/DuckDuckGoDeveloper.xcconfig:26`), when it is.
    package var styleDefinedAt: String?

    /// Creates a value from its parts.
    package init(style: String? = nil, identity: String? = nil, profileSpecifier: String? = nil, styleDefinedAt: String? = nil) {
        self.style = style
        self.identity = identity
        self.profileSpecifier = profileSpecifier
        self.styleDefinedAt = styleDefinedAt
    }

    /// Whether the configuration signs manually: `CODE_SIGN_STYLE = Manual`.
    package var isManual: Bool { style?.caseInsensitiveCompare("Manual") == .orderedSame }

    /// Whether the identity names a distribution certificate (`Apple Distribution`, `iPhone Distribution`, …).
    package var hasDistributionIdentity: Bool {
        guard let identity else { return false }
        return ["Apple Distribution", "iPhone Distribution", "iOS Distribution"].contains { identity.hasPrefix($0) }
    }

    /// Whether the profile is fastlane match's (`match AppStore com.example.app`).
    package var isMatchProfile: Bool { profileSpecifier?.hasPrefix("match ") == true }
}
