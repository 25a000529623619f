import Foundation
import Testing
@testable import ReleaseKit

/// How `xcode.export` maps the archive's bundle identifiers to the profiles it is given.
@Suite
struct XcodeExportProfileMappingTests {
    static func profile(_ name: String) throws -> ProvisioningProfile {
        try ProvisioningProfile(contentsOf: repositoryRoot + "/Fixtures/Signing/\(name).mobileprovision")
    }

    /// An ad-hoc and an App Store profile for the same app: each method gets the profile of its own type,
    /// whichever comes first.
    @Test func theMethodChoosesTheProfileType() throws {
        let adHoc = try Self.profile("adhoc"), appStore = try Self.profile("release")
        #expect(adHoc.type == .adHoc && appStore.type == .appStore)
        #expect(adHoc.matches(bundleID: "com.example.demo") && appStore.matches(bundleID: "com.example.demo"))
        for profiles in [[adHoc, appStore], [appStore, adHoc]] {
            #expect(try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: profiles, method: .appStoreConnect)
                == ["com.example.demo": appStore.uuid])
            #expect(try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: profiles, method: .releaseTesting)
                == ["com.example.demo": adHoc.uuid])
            #expect(try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: profiles, method: .development) == [:])
        }
    }

    /// Two App Store profiles for the same app identifier (the second a renewal of the first): an error naming
    /// both, not the first one found; the same profile given twice is one.
    @Test func twoProfilesThatFitEquallyAreAnError() throws {
        let first = try Self.profile("release")
        var second = first
        second.uuid = "11111111-2222-3333-4444-555555555555"
        second.name = "Demo App Store (renewed)"
        #expect(throws: StepError.invalidOption("profiles", "bundle identifier 'com.example.demo' is covered by 2 app-store profiles "
            + "equally: '\(first.name)' (\(first.uuid)), '\(second.name)' (\(second.uuid)); choose one with 'provisioning_profiles'")) {
            try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: [first, second, first], method: .appStore)
        }
        #expect(try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: [first, first], method: .appStore)
            == ["com.example.demo": first.uuid])
    }
}
