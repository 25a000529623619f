import Foundation

// The signing resources of App Store Connect (certificates, bundle ids, devices, profiles) as Apple's OpenAPI
// contract (4.4.1) names them; only the attributes `signing.sync` reads, every one optional as the contract makes them.

/// `Certificate`: `certificateContent` is the DER certificate in base64.
package struct CertificateAttributes: Decodable, Sendable {
    package var name: String?
    package var certificateType: String?
    package var displayName: String?
    package var serialNumber: String?
    package var platform: String?
    package var expirationDate: String?
    package var certificateContent: String?
}

/// `BundleId`.
package struct BundleIdAttributes: Decodable, Sendable {
    package var name: String?
    package var platform: String?
    package var identifier: String?
    package var seedId: String?
}

/// `Device`: `status` is `ENABLED` or `DISABLED`.
package struct DeviceAttributes: Decodable, Sendable {
    package var name: String?
    package var platform: String?
    package var udid: String?
    package var deviceClass: String?
    package var status: String?
}

/// `Profile`: `profileContent` is the `.mobileprovision` in base64; `profileState` is `ACTIVE` or `INVALID`.
package struct ProfileAttributes: Decodable, Sendable {
    package var name: String?
    package var platform: String?
    package var profileType: String?
    package var profileState: String?
    package var profileContent: String?
    package var uuid: String?
    package var expirationDate: String?
}
