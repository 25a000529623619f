import Foundation

/// What App Store Connect holds for one `signing.sync` (the certificate of the key, each bundle id and its usable
/// profile) and the writes that would make it complete: what `verify` and `release signing status` report, and what
/// ``SigningSynchronizer/apply(_:log:)`` carries out.
public struct SigningAssessment: Sendable {
    /// A certificate on App Store Connect.
    public struct FoundCertificate: Sendable {
        public var id: String
        public var type: String
        public var der: [UInt8]
        public var info: SigningCertificateInfo
    }

    /// A profile on App Store Connect, read from its content.
    public struct FoundProfile: Sendable {
        public var id: String
        public var name: String
        public var uuid: String
        public var expires: Date?
        public var state: String
        /// The `.mobileprovision` bytes.
        public var content: [UInt8]
        /// Made by `signing.sync` (named ``SigningSynchronizer/profileName(bundleID:type:)``), so it may delete it.
        public var owned: Bool
    }

    /// One bundle id: its resource, the profile a build would use, and the stale one of ours to renew.
    public struct Bundle: Sendable {
        public var identifier: String
        /// The bundle id resource's id; nil when App Store Connect has none.
        public var resourceID: String?
        public var profile: FoundProfile?
        /// Our profile that cannot be used any more, deleted when renewing.
        public var stale: FoundProfile?
        /// Why no profile of the bundle id can be used (empty when `profile` is set).
        public var problem: String?
    }

    public var specification: SigningSpecification
    /// The usable certificate of the key; nil when App Store Connect has none.
    public var certificate: FoundCertificate?
    /// A certificate of the key that a profile still names but App Store Connect no longer lists: revoked (or expired).
    public var missingCertificate: SigningCertificateInfo?
    /// A certificate of the key that has expired or expires within `min_days_left`.
    public var expiringCertificate: FoundCertificate?
    public var bundles: [Bundle]
    /// The enabled devices (id, UDID) a development or ad hoc profile must list; empty for other types.
    public var devices: [(id: String, udid: String)]
    /// The writes, in the order they would be made.
    public var changes: [SigningChange]

    /// Whether a run would make no write.
    public var isComplete: Bool { changes.isEmpty }

    /// Why there is no certificate, worded with what to do, when that is because of a revocation or an expiry.
    public var certificateNote: String? {
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
