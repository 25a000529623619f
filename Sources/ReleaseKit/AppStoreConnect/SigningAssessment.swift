import Foundation
import ReleaseSupport

/// What App Store Connect holds for one `signing.sync` (the certificate of the key, each bundle id and its usable
/// profile) and the writes that would make it complete: what `verify` and `release signing status` report, and what
/// ``SigningSynchronizer/apply(_:log:)`` carries out.
package struct SigningAssessment: Sendable {
    /// A certificate on App Store Connect.
    package struct FoundCertificate: Sendable {
        package var id: String
        package var type: String
        package var der: [UInt8]
        package var info: SigningCertificateInfo
    }

    /// A profile on App Store Connect, read from its content.
    package struct FoundProfile: Sendable {
        package var id: String
        package var name: String
        package var uuid: String
        package var expires: Date?
        package var state: String
        /// The `.mobileprovision` bytes.
        package var content: [UInt8]
        /// Made by `signing.sync` (named ``SigningSynchronizer/profileName(bundleID:type:)``), so it may delete it.
        package var owned: Bool
    }

    /// One bundle id: its resource, the profile a build would use, and the stale one of ours to renew.
    package struct Bundle: Sendable {
        package var identifier: String
        /// The bundle id resource's id; nil when App Store Connect has none.
        package var resourceID: String?
        package var profile: FoundProfile?
        /// Our profile that cannot be used any more, deleted when renewing.
        package var stale: FoundProfile?
        /// Why no profile of the bundle id can be used (empty when `profile` is set).
        package var problem: String?
    }

    package var specification: SigningSpecification
    /// The usable certificate of the key; nil when App Store Connect has none.
    package var certificate: FoundCertificate?
    /// A certificate of the key that a profile still names but App Store Connect no longer lists: revoked (or expired).
    package var missingCertificate: SigningCertificateInfo?
    /// A certificate of the key that has expired or expires within `min_days_left`.
    package var expiringCertificate: FoundCertificate?
    package var bundles: [Bundle]
    /// The enabled devices (id, UDID) a development or ad hoc profile must list; empty for other types.
    package var devices: [(id: String, udid: String)]
    /// The writes, in the order they would be made.
    package var changes: [SigningChange]

    /// Whether a run would make no write.
    package var isComplete: Bool { changes.isEmpty }

    /// Why there is no certificate, worded with what to do, when that is because of a revocation or an expiry.
    package var certificateNote: String? {
        if let missing = missingCertificate {
            return
                "the \(specification.certificateTypes[0]) certificate of this key (serial \(missing.serialNumber), '\(missing.commonName)') is no longer on App Store Connect: it was revoked (perhaps by a teammate, in the developer account or by another tool); the profiles made with it are invalid. With \"create\": true, signing.sync makes a new certificate from the same key and renews the profiles; or put a new key in the secret"
        }
        if let expiring = expiringCertificate {
            return
                "the certificate of this key (serial \(expiring.info.serialNumber)) expires on \(Timestamp.iso8601(expiring.info.notValidAfter)); with \"create\": true, signing.sync makes a new one from the same key"
        }
        return nil
    }
}
