/// One write `signing.sync` would make on App Store Connect, worded for a person.
package enum SigningChange: Sendable, Equatable, CustomStringConvertible {
    /// A certificate of `type` from a signing request made with the private key.
    case createCertificate(type: String)
    /// The bundle id (an explicit App ID) for `identifier`.
    case createBundleID(identifier: String, platform: String)
    /// A new profile, as none of the bundle id's profiles can be used (`reason`).
    case createProfile(bundleID: String, name: String, reason: String)
    /// The stale profile `signing.sync` made earlier, deleted and made again (`reason`).
    case renewProfile(bundleID: String, name: String, uuid: String, reason: String)

    package var description: String {
        switch self {
        case .createCertificate(let type):
            return "create a \(type) certificate from a signing request made with the private key"
        case .createBundleID(let identifier, let platform):
            return "create bundle id '\(identifier)' (\(platform))"
        case .createProfile(let bundleID, let name, let reason):
            return "create profile '\(name)' for \(bundleID) (\(reason))"
        case .renewProfile(let bundleID, let name, let uuid, let reason):
            return "renew profile '\(name)' (\(uuid)) for \(bundleID): delete it and create it again (\(reason))"
        }
    }

    /// The JSON form for `release signing status --json`.
    package var json: [String: Any] {
        switch self {
        case .createCertificate(let type): return ["action": "create-certificate", "certificate_type": type]
        case .createBundleID(let identifier, let platform): return ["action": "create-bundle-id", "bundle_id": identifier, "platform": platform]
        case .createProfile(let bundleID, let name, let reason):
            return ["action": "create-profile", "bundle_id": bundleID, "name": name, "reason": reason]
        case .renewProfile(let bundleID, let name, let uuid, let reason):
            return ["action": "renew-profile", "bundle_id": bundleID, "name": name, "uuid": uuid, "reason": reason]
        }
    }
}
