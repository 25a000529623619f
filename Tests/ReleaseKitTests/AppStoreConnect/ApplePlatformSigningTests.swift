import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseArtifacts
@testable import ReleaseSupport

@Suite struct ApplePlatformSigningTests {
    @Test func profileTypesAreAppStoreConnectsPerSigningPlatform() {
        let types: [ProvisioningProfile.ProfileType] = [.development, .adHoc, .appStore, .enterprise]
        #expect(types.map(ApplePlatform.iOS.profileType) == ["IOS_APP_DEVELOPMENT", "IOS_APP_ADHOC", "IOS_APP_STORE", "IOS_APP_INHOUSE"])
        #expect(types.map(ApplePlatform.tvOS.profileType) == ["TVOS_APP_DEVELOPMENT", "TVOS_APP_ADHOC", "TVOS_APP_STORE", "TVOS_APP_INHOUSE"])
        #expect(types.map(ApplePlatform.macOS.profileType) == ["MAC_APP_DEVELOPMENT", nil, "MAC_APP_STORE", nil])
        #expect(types.map(ApplePlatform.macOS.certificateTypes).map(\.first) == ["DEVELOPMENT", "DISTRIBUTION", "DISTRIBUTION", "DISTRIBUTION"])
        #expect(ApplePlatform.macOS.certificateTypes(.appStore) == ["DISTRIBUTION", "MAC_APP_DISTRIBUTION"])
        #expect(ApplePlatform.tvOS.certificateTypes(.development) == ["DEVELOPMENT", "IOS_DEVELOPMENT"])
        #expect(ApplePlatform.iOS.certificateTypes(.adHoc) == ["DISTRIBUTION", "IOS_DISTRIBUTION"])
        #expect(ApplePlatform.tvOS.deviceClasses == ["APPLE_TV"])
        #expect(ApplePlatform.macOS.deviceClasses == ["MAC"])
        #expect(ApplePlatform.iOS.deviceClasses.contains("APPLE_VISION_PRO"))
    }

    /// watchOS and visionOS apps sign with iOS's profiles, certificates and devices.
    @Test(arguments: [ApplePlatform.watchOS, .visionOS])
    func watchAndVisionSignAsIOS(platform: ApplePlatform) {
        for type in ProvisioningProfile.ProfileType.allCases {
            #expect(platform.profileType(type) == ApplePlatform.iOS.profileType(type))
            #expect(platform.certificateTypes(type) == ApplePlatform.iOS.certificateTypes(type))
        }
        #expect(platform.deviceClasses == ApplePlatform.iOS.deviceClasses)
        #expect(platform.bundleIDPlatform == "IOS")
    }
}
