import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// What one `signing.sync` asks for: the profile type and platform, the bundle ids, and how long a profile must
/// still be valid.
package struct SigningSpecification: Sendable {
    package var type: ProvisioningProfile.ProfileType
    package var platform: ApplePlatform
    package var bundleIDs: [String]
    /// A profile (or certificate) expiring within this many days is renewed.
    package var minDaysLeft: Int
    /// The run's clock.
    package var now: Date
    /// The Name every profile must have, `$(PRODUCT_BUNDLE_IDENTIFIER)` standing for its bundle id (what the Xcode
    /// steps' `PROVISIONING_PROFILE_SPECIFIER` names); nil: any usable profile, preferring
    /// ``SigningSynchronizer/profileName(bundleID:type:)``.
    package var profileName: String?

    package init(
        type: ProvisioningProfile.ProfileType, platform: ApplePlatform, bundleIDs: [String], minDaysLeft: Int, now: Date, profileName: String? = nil
    ) {
        self.type = type
        self.platform = platform
        self.bundleIDs = bundleIDs
        self.minDaysLeft = minDaysLeft
        self.now = now
        self.profileName = profileName
    }

    /// The placeholder ``profileName`` replaces with each bundle id, as Xcode expands it in a profile specifier.
    package static let bundleIDReference = "$(PRODUCT_BUNDLE_IDENTIFIER)"

    /// The Name of the profile the sync makes (and may renew) for `bundleID`: ``profileName`` with the bundle id in
    /// place of `$(PRODUCT_BUNDLE_IDENTIFIER)`, else `release <type> <bundle id>`.
    package func ownProfileName(bundleID: String) -> String {
        guard let profileName else { return SigningSynchronizer.profileName(bundleID: bundleID, type: type) }
        return profileName.replacingOccurrences(of: Self.bundleIDReference, with: bundleID)
            .replacingOccurrences(of: "${PRODUCT_BUNDLE_IDENTIFIER}", with: bundleID)
    }

    /// `IOS_APP_STORE` and friends; nil when the platform has no profile of the type.
    package var profileType: String? { platform.profileType(type) }
    /// The certificate types that sign the profiles, the one created first.
    package var certificateTypes: [String] { platform.certificateTypes(type) }
    /// Whether the profiles list devices.
    package var listsDevices: Bool { type == .adHoc || type == .development }
    /// The date before which nothing may expire.
    package var deadline: Date { now.addingTimeInterval(Double(minDaysLeft) * 86_400) }
}
