import Foundation

/// What one `signing.sync` asks for: the profile type and platform, the bundle ids, and how long a profile must
/// still be valid.
public struct SigningSpecification: Sendable {
    public var type: ProvisioningProfile.ProfileType
    public var platform: SigningPlatform
    public var bundleIDs: [String]
    /// A profile (or certificate) expiring within this many days is renewed.
    public var minDaysLeft: Int
    /// The run's clock.
    public var now: Date
    /// The Name every profile must have, `$(PRODUCT_BUNDLE_IDENTIFIER)` standing for its bundle id (what the Xcode
    /// steps' `PROVISIONING_PROFILE_SPECIFIER` names); nil: any usable profile, preferring
    /// ``SigningSynchronizer/profileName(bundleID:type:)``.
    public var profileName: String?

    public init(
        type: ProvisioningProfile.ProfileType, platform: SigningPlatform, bundleIDs: [String], minDaysLeft: Int, now: Date, profileName: String? = nil
    ) {
        self.type = type
        self.platform = platform
        self.bundleIDs = bundleIDs
        self.minDaysLeft = minDaysLeft
        self.now = now
        self.profileName = profileName
    }

    /// The placeholder ``profileName`` replaces with each bundle id, as Xcode expands it in a profile specifier.
    public static let bundleIDReference = "$(PRODUCT_BUNDLE_IDENTIFIER)"

    /// The Name of the profile the sync makes (and may renew) for `bundleID`: ``profileName`` with the bundle id in
    /// place of `$(PRODUCT_BUNDLE_IDENTIFIER)`, else `release <type> <bundle id>`.
    public func ownProfileName(bundleID: String) -> String {
        guard let profileName else { return SigningSynchronizer.profileName(bundleID: bundleID, type: type) }
        return profileName.replacingOccurrences(of: Self.bundleIDReference, with: bundleID)
            .replacingOccurrences(of: "${PRODUCT_BUNDLE_IDENTIFIER}", with: bundleID)
    }

    /// `IOS_APP_STORE` and friends; nil when the platform has no profile of the type.
    public var profileType: String? { platform.profileType(type) }
    /// The certificate types that sign the profiles, the one created first.
    public var certificateTypes: [String] { platform.certificateTypes(type) }
    /// Whether the profiles list devices.
    public var listsDevices: Bool { type == .adHoc || type == .development }
    /// The date before which nothing may expire.
    public var deadline: Date { now.addingTimeInterval(Double(minDaysLeft) * 86_400) }
}
