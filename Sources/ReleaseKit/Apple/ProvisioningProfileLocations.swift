/// Where Xcode looks for installed provisioning profiles, named `<UUID>.mobileprovision`: Xcode 16 and later read
/// `~/Library/Developer/Xcode/UserData/Provisioning Profiles`, earlier ones `~/Library/MobileDevice/Provisioning
/// Profiles`; a profile is installed in both so either Xcode finds it.
package enum ProvisioningProfileLocations {
    /// The folders under `home`, newest Xcode's first.
    package static func folders(home: String) -> [String] {
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        return [
            base + "/Library/Developer/Xcode/UserData/Provisioning Profiles",
            base + "/Library/MobileDevice/Provisioning Profiles",
        ]
    }

    /// `<UUID>.mobileprovision`.
    package static func fileName(uuid: String) -> String { "\(uuid).mobileprovision" }
}
