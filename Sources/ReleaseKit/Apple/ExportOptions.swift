import Foundation
import ReleaseArtifacts

/// The ExportOptions.plist `xcodebuild -exportArchive -exportOptionsPlist` reads, from typed values. The keys are
/// those `xcodebuild -help` lists under "Available keys for -exportOptionsPlist".
package struct ExportOptions: Sendable, Equatable {
    /// How Xcode should export.
    package var method: ExportMethod
    /// `teamID`; omitted when nil.
    package var teamID: String?
    /// `signingStyle`: `manual` or `automatic`.
    package var signingStyle: String
    /// `provisioningProfiles`: bundle identifier → profile name or UUID (manual signing).
    package var provisioningProfiles: [String: String]
    /// `uploadSymbols` (App Store exports).
    package var uploadSymbols: Bool
    /// `signingCertificate`: a certificate name or SHA-1; omitted when nil.
    package var signingCertificate: String?

    package init(
        method: ExportMethod, teamID: String? = nil, signingStyle: String = "manual",
        provisioningProfiles: [String: String] = [:], uploadSymbols: Bool = true, signingCertificate: String? = nil
    ) {
        self.method = method
        self.teamID = teamID
        self.signingStyle = signingStyle
        self.provisioningProfiles = provisioningProfiles
        self.uploadSymbols = uploadSymbols
        self.signingCertificate = signingCertificate
    }

    /// The dictionary, with `method` named for `xcode`. `manageAppVersionAndBuildNumber` is always false: the
    /// release decided the version and build, and Xcode must not change them on the way to App Store Connect.
    package func dictionary(for xcode: XcodeVersion) -> [String: Any] {
        var result: [String: Any] = [
            "method": method.name(for: xcode),
            "signingStyle": signingStyle,
            "manageAppVersionAndBuildNumber": false,
        ]
        if let teamID { result["teamID"] = teamID }
        if !provisioningProfiles.isEmpty { result["provisioningProfiles"] = provisioningProfiles }
        if method.profileType == .appStore {
            result["uploadSymbols"] = uploadSymbols
            // AppStoreInfo.plist beside the .ipa: Apple's upload tools need it off macOS, so appstore.upload attaches it.
            result["generateAppStoreInformation"] = true
        }
        if let signingCertificate { result["signingCertificate"] = signingCertificate }
        return result
    }

    /// The XML property list Xcode reads, keys sorted (so the file is the same for the same options).
    package func propertyList(for xcode: XcodeVersion) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary(for: xcode), format: .xml, options: 0)
    }
}
