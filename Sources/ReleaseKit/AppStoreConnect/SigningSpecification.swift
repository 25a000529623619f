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

    public init(type: ProvisioningProfile.ProfileType, platform: SigningPlatform, bundleIDs: [String], minDaysLeft: Int, now: Date) {
        self.type = type
        self.platform = platform
        self.bundleIDs = bundleIDs
        self.minDaysLeft = minDaysLeft
        self.now = now
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
