import Foundation
import ReleaseApple
import ReleaseArtifacts
import ReleaseSupport

/// Installs a provisioning profile where Xcode looks for it (every folder of ``ProvisioningProfileLocations``, as
/// `<UUID>.mobileprovision`), what `signing.profile` and `signing.sync` share. A file there already is left as it is;
/// each file written gets a teardown that removes it.
enum ProfileInstaller {
    /// Writes `data` (the profile `profile` was read from) under `home`; returns the path in the newest Xcode's folder.
    @discardableResult
    static func install(_ profile: ProvisioningProfile, data: Data, home: String, in context: StepContext) throws -> String {
        let folders = ProvisioningProfileLocations.folders(home: home)
        for folder in folders {
            let path = folder + "/" + ProvisioningProfileLocations.fileName(uuid: profile.uuid)
            if context.files.exists(path) {
                context.log("'\(path)' is installed already; left as it is")
                continue
            }
            try context.files.createDirectory(folder)
            try AtomicFile.write(data, to: path)
            context.addTeardown("remove provisioning profile '\(path)'") {
                try LocalFiles().remove(path)
            }
        }
        context.log(
            "installed \(profile.type.rawValue) profile '\(profile.name)' (\(profile.uuid)) for \(profile.applicationIdentifier ?? "?"), valid until \(profile.expirationDate.map { Timestamp.iso8601($0) } ?? "?")"
        )
        return folders[0] + "/" + ProvisioningProfileLocations.fileName(uuid: profile.uuid)
    }

    /// The home folder whose Library receives profiles: `home` (resolved), else `$HOME`.
    static func home(_ home: String?, in context: StepContext) throws -> String {
        if let home { return context.resolvePath(home) }
        guard let home = context.environment["HOME"], !home.isEmpty else {
            throw StepError.failed("HOME is not set: cannot tell where Xcode looks for provisioning profiles")
        }
        return home
    }
}
