import Foundation
import Testing

@testable import ReleaseApple
@testable import ReleaseArtifacts
@testable import ReleasePipeline
@testable import ReleaseSteps

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
            #expect(
                try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: profiles, method: .appStoreConnect)
                    == ["com.example.demo": appStore.uuid])
            #expect(
                try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: profiles, method: .releaseTesting)
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
        #expect(
            throws: StepError.invalidOption(
                "profiles",
                "bundle identifier 'com.example.demo' is covered by 2 app-store profiles "
                    + "equally: '\(first.name)' (\(first.uuid)), '\(second.name)' (\(second.uuid)); choose one with 'provisioning_profiles'")
        ) {
            try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: [first, second, first], method: .appStore)
        }
        #expect(
            try XcodeExportStep.mapping(bundleIDs: ["com.example.demo"], profiles: [first, first], method: .appStore)
                == ["com.example.demo": first.uuid])
    }
}

/// `xcode.export`'s `profiles` default: the paths of the pipeline's `signing.profile` steps.
@Suite
struct XcodeExportProfilesDefaultTests {
    static func pipeline(export with: String) -> String {
        """
        {"version": 1,
         "steps": [
           {"id": "store", "uses": "signing.profile", "with": {"profiles": ["Signing/release.mobileprovision"]}},
           {"id": "extra", "uses": "signing.profile", "with": {"profiles": ["Signing/widget.mobileprovision"]}},
           {"id": "export", "uses": "xcode.export",
            "with": {"archive": "build/Demo.xcarchive", "method": "app-store-connect", "export_path": "build/export"\(with)}}
         ]}
        """
    }

    static func profiles(_ with: String) throws -> JSONNode? {
        let pipeline = try TestPipelines.load(Self.pipeline(export: with))
        return try #require(pipeline.definition.steps.first { $0.id == "export" }).with["profiles"]
    }

    @Test func theProfilesOfEverySigningProfileStepAreTheDefault() throws {
        let pipeline = try TestPipelines.load(Self.pipeline(export: ""))
        let profiles = try #require(pipeline.definition.steps.first { $0.id == "export" }?.with["profiles"])
        guard case .array(let items) = profiles.value else { Issue.record("profiles: \(profiles)"); return }
        #expect(items.map(\.string) == ["${steps.store.outputs.paths}", "${steps.extra.outputs.paths}"])
        #expect(pipeline.graph.dependencies["export"].map { Array($0).sorted() } == ["extra", "store"])
    }

    @Test func anExplicitOptionOrAutomaticSigningWins() throws {
        let given = try #require(try Self.profiles(#", "profiles": ["a.mobileprovision"]"#))
        guard case .array(let items) = given.value else { Issue.record("profiles: \(given)"); return }
        #expect(items.map(\.string) == ["a.mobileprovision"])
        #expect(try Self.profiles(#", "provisioning_profiles": {"com.example.demo": "Demo"}"#) == nil)
        #expect(try Self.profiles(#", "signing_style": "automatic""#) == nil)
        #expect(try Self.profiles(#", "signing_style": "manual""#) != nil)
    }
}
