import Foundation

/// The signing resources the local App Store Connect server keeps in its snapshot: certificates issued from the
/// requests it received, bundle ids, devices and profiles (with their signed `.mobileprovision` content).
struct AppStoreConnectSigningState: Codable, Sendable {
    struct Certificate: Codable, Sendable {
        var id: String
        var certificateType: String
        var name: String
        var displayName: String
        var serialNumber: String
        var platform: String?
        var expirationDate: Date
        /// The DER certificate.
        var content: Data
    }

    struct BundleID: Codable, Sendable {
        var id: String
        var identifier: String
        var name: String
        var platform: String
        var seedID: String
    }

    struct Device: Codable, Sendable {
        var id: String
        var name: String
        var udid: String
        var platform: String
        var deviceClass: String
        /// ENABLED or DISABLED.
        var status: String
        var addedDate: Date
    }

    struct Profile: Codable, Sendable {
        var id: String
        var name: String
        var profileType: String
        var platform: String
        /// ACTIVE or INVALID.
        var profileState: String
        var uuid: String
        var bundleIDResource: String
        var certificateIDs: [String]
        var deviceIDs: [String]
        var createdDate: Date
        var expirationDate: Date
        /// The signed `.mobileprovision`.
        var content: Data
    }

    var certificates: [Certificate] = []
    var bundleIDs: [BundleID] = []
    var devices: [Device] = []
    var profiles: [Profile] = []
    /// The serial number of the next certificate issued.
    var nextSerial: UInt64 = 0x5EED_0001
}
