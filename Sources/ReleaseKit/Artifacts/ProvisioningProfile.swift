import Foundation
import ReleaseSupport

/// A provisioning profile (`.mobileprovision`) as `gate.ipa` and `signing.profile` read it: the property list inside
/// its CMS (PKCS #7) envelope.
///
/// A profile is a CMS SignedData whose content is the profile's property list: it is read with ``CMSSignedData``
/// (DER, or BER with the content in chunks). Should that fail on an unusual encoding, the bytes from the first
/// `<?xml` to the first `</plist>` are tried, which is exact whenever the content is one primitive OCTET STRING.
/// The signature is not verified: iOS does that at installation; readers check what the profile says.
package struct ProvisioningProfile: Sendable, Equatable {
    /// What a profile is for, from its contents (Xcode's own classification).
    package enum ProfileType: String, Sendable, Equatable, CaseIterable {
        /// Debuggable builds on listed devices: `get-task-allow` true.
        case development
        /// Distribution to the devices it lists.
        case adHoc = "ad-hoc"
        /// App Store and TestFlight: distribution without devices.
        case appStore = "app-store"
        /// In-house distribution: `ProvisionsAllDevices` true.
        case enterprise
    }

    /// Why a profile cannot be read.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a signed profile: the CMS reader's reason.
        case notSigned(String)
        /// The content is not a property list dictionary.
        case notADictionary

        package var description: String {
            switch self {
            case .notSigned(let reason): return "not a signed provisioning profile: \(reason)"
            case .notADictionary: return "its property list does not parse as a dictionary"
            }
        }
    }

    /// `UUID`: the name Xcode installs it under (`<UUID>.mobileprovision`).
    package var uuid: String
    /// `Name`, what ExportOptions' `provisioningProfiles` may refer to.
    package var name: String
    /// `TeamIdentifier` (else `ApplicationIdentifierPrefix`), first entry; empty when neither is there.
    package var teamID: String
    /// `TeamName`.
    package var teamName: String
    /// `Entitlements.application-identifier`, `TEAMID.com.example.app` or a wildcard `TEAMID.*`; nil when missing.
    package var applicationIdentifier: String?
    /// What it is for.
    package var type: ProfileType
    /// `ExpirationDate`; nil when missing.
    package var expirationDate: Date?
    /// `ProvisionedDevices`.
    package var devices: [String]
    /// `ProvisionsAllDevices`.
    package var provisionsAllDevices: Bool
    /// `Entitlements.get-task-allow`.
    package var getTaskAllow: Bool
    /// `DeveloperCertificates`: the DER certificates whose keys may sign with the profile.
    package var developerCertificates: [[UInt8]]

    /// Reads a profile from the bytes of a `.mobileprovision` file.
    /// - Throws: ``Failure``.
    package init(data: Data) throws(Failure) {
        guard let plist = Self.propertyList(in: data) else {
            var reason = "it holds no property list"
            do { _ = try CMSSignedData.content(of: [UInt8](data)) } catch { reason = error.description }
            throw .notSigned(reason)
        }
        guard let profile = PropertyListDepth.propertyList(from: plist) as? [String: Any] else {
            throw .notADictionary
        }
        let entitlements = profile["Entitlements"] as? [String: Any] ?? [:]
        uuid = profile["UUID"] as? String ?? ""
        name = profile["Name"] as? String ?? ""
        teamID = (profile["TeamIdentifier"] as? [String])?.first ?? (profile["ApplicationIdentifierPrefix"] as? [String])?.first ?? ""
        teamName = profile["TeamName"] as? String ?? ""
        applicationIdentifier = (entitlements["application-identifier"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        expirationDate = profile["ExpirationDate"] as? Date
        devices = (profile["ProvisionedDevices"] as? [Any] ?? []).map { "\($0)" }
        provisionsAllDevices = profile["ProvisionsAllDevices"] as? Bool == true
        getTaskAllow = entitlements["get-task-allow"] as? Bool == true
        developerCertificates = (profile["DeveloperCertificates"] as? [Any] ?? []).compactMap { ($0 as? Data).map { [UInt8]($0) } }
        if provisionsAllDevices {
            type = .enterprise
        } else if getTaskAllow {
            type = .development
        } else if !devices.isEmpty {
            type = .adHoc
        } else {
            type = .appStore
        }
    }

    /// Reads the profile at `path`.
    /// - Throws: ``Failure``, or the file system's error.
    package init(contentsOf path: String) throws {
        try self.init(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The bundle identifier part of the application identifier (`com.example.app`, `*`, `com.example.*`): what
    /// follows the team prefix.
    package var bundleIdentifierPattern: String? {
        guard let identifier = applicationIdentifier else { return nil }
        return identifier.firstIndex(of: ".").map { String(identifier[identifier.index(after: $0)...]) } ?? ""
    }

    /// Whether the profile is a wildcard one (`TEAMID.*`, `TEAMID.com.example.*`).
    package var isWildcard: Bool { bundleIdentifierPattern?.hasSuffix("*") ?? false }

    /// Whether the profile's application identifier covers `bundleID`, exactly or by a wildcard.
    package func matches(bundleID: String) -> Bool {
        guard let pattern = bundleIdentifierPattern else { return false }
        return pattern == "*" || pattern == bundleID || (pattern.hasSuffix(".*") && bundleID.hasPrefix(String(pattern.dropLast())))
    }

    /// Whether the profile has expired at `now` (a profile without an expiry counts as expired).
    package func isExpired(at now: Date) -> Bool {
        guard let expirationDate else { return true }
        return expirationDate <= now
    }

    /// Why the profile cannot be used at `now`, worded once for `gate.ipa` and `signing.profile`: expired, or no
    /// expiry at all; nil while it is valid. `label` names the profile in the message.
    package func expiryProblem(at now: Date, label: String) -> String? {
        guard let expirationDate else { return "\(label) has no ExpirationDate" }
        guard expirationDate <= now else { return nil }
        return "\(label) expired on \(Timestamp.iso8601(expirationDate)) (now \(Timestamp.iso8601(now)))"
    }

    /// The property list inside a CMS-signed provisioning profile: its eContent, else the bytes from `<?xml` to
    /// `</plist>`.
    package static func propertyList(in data: Data) -> Data? {
        let bytes = [UInt8](data)
        if let content = try? CMSSignedData.content(of: bytes) { return Data(content) }
        guard let start = find(Array("<?xml".utf8), in: bytes, from: 0) else { return nil }
        let close = Array("</plist>".utf8)
        guard let end = find(close, in: bytes, from: start) else { return nil }
        return Data(bytes[start..<(end + close.count)])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
