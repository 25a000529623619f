import Foundation
import ReleaseArtifacts

/// What one `signing.sync` asks for: the profile type and platform, the bundle ids, and how long a profile must
/// still be valid.
package struct SigningSpecification: Sendable {
    package var type: ProvisioningProfile.ProfileType
    package var platform: SigningPlatform
    package var bundleIDs: [String]
    /// A profile (or certificate) expiring within this many days is renewed.
    package var minDaysLeft: Int
    /// The run's clock.
    package var now: Date

    package init(type: ProvisioningProfile.ProfileType, platform: SigningPlatform, bundleIDs: [String], minDaysLeft: Int, now: Date) {
        self.type = type
        self.platform = platform
        self.bundleIDs = bundleIDs
        self.minDaysLeft = minDaysLeft
        self.now = now
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
