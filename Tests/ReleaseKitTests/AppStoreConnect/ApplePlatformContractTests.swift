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
}
