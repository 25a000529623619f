import Foundation

// The signing resources of App Store Connect (certificates, bundle ids, devices, profiles) as Apple's OpenAPI
// contract (4.4.1) names them; only the attributes `signing.sync` reads, every one optional as the contract makes them.

/// `Certificate`: `certificateContent` is the DER certificate in base64.
public struct CertificateAttributes: Decodable, Sendable {
    public var name: String?
    public var certificateType: String?
    public var displayName: String?
    public var serialNumber: String?
    public var platform: String?
    public var expirationDate: String?
    public var certificateContent: String?
}

/// `BundleId`.
public struct BundleIdAttributes: Decodable, Sendable {
    public var name: String?
    public var platform: String?
    public var identifier: String?
    public var seedId: String?
}

/// `Device`: `status` is `ENABLED` or `DISABLED`.
public struct DeviceAttributes: Decodable, Sendable {
    public var name: String?
    public var platform: String?
    public var udid: String?
    public var deviceClass: String?
    public var status: String?
}

/// `Profile`: `profileContent` is the `.mobileprovision` in base64; `profileState` is `ACTIVE` or `INVALID`.
public struct ProfileAttributes: Decodable, Sendable {
    public var name: String?
    public var platform: String?
    public var profileType: String?
    public var profileState: String?
    public var profileContent: String?
    public var uuid: String?
    public var expirationDate: String?
}
