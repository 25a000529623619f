import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseSupport

@Suite struct ApplePlatformContractTests {
    /// The contract's values are the words the queries filter by, so a request's body and its filters agree.
    @Test(arguments: ApplePlatform.allCases)
    func theContractsValuesAreTheAppStoreConnectWords(platform: ApplePlatform) {
        #expect(platform.contractPlatform.rawValue == platform.appStoreConnect)
        #expect(platform.contractBundleIDPlatform.rawValue == platform.bundleIDPlatform)
    }

    @Test func everyContractPlatformIsOne() {
        let named = Set(ApplePlatform.allCases.map(\.contractPlatform))
        #expect(named == Set(Components.Schemas.Platform.allCases))
        #expect(Components.Schemas.Platform.allCases.allSatisfy { ApplePlatform(appStoreConnect: $0.rawValue)?.contractPlatform == $0 })
    }

    /// A missing version names the platform as App Store Connect does.
    @Test func aMissingVersionNamesThePlatformInAppStoreConnectsWord() {
        #expect(
            AppStoreConnectError.noVersion(version: "2.0", platform: .tvOS, existing: ["1.0"]).description
                == "the app has no App Store version 2.0 on TV_OS; it has '1.0' (submit it first with appstore.submit)")
    }
}
