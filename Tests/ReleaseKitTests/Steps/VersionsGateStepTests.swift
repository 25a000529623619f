import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps

@Suite struct VersionsGateStepTests {
    static func repository(_ fixture: String, tags: [String] = []) async throws -> VersioningGitRepository {
        let repository = try await VersioningGitRepository(copying: FixturePaths.fixture("Xcode/\(fixture)").path)
        for tag in tags { try await repository.git("tag", tag) }
        return repository
    }

    @Test func acceptsAnAppAndWidgetInStepAboveTheLastReleaseTag() async throws {
        let repository = try await Self.repository("binary-plist", tags: ["v2.9.0-4100_2014-09-01T10-00-00Z", "v2.10-4000", "v2.9.1-beta", "nightly-4200", "other"])
        defer { repository.remove() }
        let result = try await GatePipelines.runGate(
            "gate.versions", ["project": "Binary.xcodeproj", "tag_pattern": "v*", "expected_version": "3.0.0", "expected_build": "4146"], directory: repository.path)
        #expect(result.statuses == ["gate=ok"])
        #expect(result.step("gate")?.outputs == ["version": .string("3.0.0"), "build": .string("4146"), "latest_tag": .string("v2.10-4000")])
    }

    @Test func acceptsAWatchAppInStepAndIgnoresTestBundles() async throws {
        // ModernTests is at 1.0 (1): test bundles are not shipped, so they do not count.
        let repository = try await Self.repository("generated-plist", tags: ["v2.3-86"])
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "v*"], directory: repository.path)
        #expect(result.statuses == ["gate=ok"])
        #expect(result.step("gate")?.outputs["version"] == .string("2.4"))
    }

    @Test func rejectsAnExtensionBehindItsApp() async throws {
        let repository = try await Self.repository("pbxproj-per-target")
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["configuration": "Release"], directory: repository.path)
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.exitCode == 2)
        #expect(
            result.step("gate")?.message
                == "'ShareExtension' (Release) has version '2.9', defined at Demo.xcodeproj/project.pbxproj:281 (MARKETING_VERSION), expected '3.0.0' like its app 'Demo'")
        let debug = try await GatePipelines.runGate("gate.versions", ["configuration": "Debug"], directory: repository.path)
        #expect(
            debug.step("gate")?.message
                == "'ShareExtension' (Debug) has version '2.9', defined at Demo.xcodeproj/project.pbxproj:238 (MARKETING_VERSION), expected '3.0.0' like its app 'Demo'")
    }

    @Test func rejectsAVersionAppStoreConnectRefuses() async throws {
        let repository = try await Self.repository("many-places")
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", [:], directory: repository.path)
        #expect(
            result.step("gate")?.message
                == "'Many' (Release) has version '7.1.3b5', defined at Many.xcodeproj/project.pbxproj:631 (MARKETING_VERSION), expected one to three dot-separated integers for App Store Connect"
        )
    }

    @Test func rejectsAVersionAndBuildNotAboveTheLastRelease() async throws {
        let repository = try await Self.repository("binary-plist", tags: ["v3.0.0-4321_2014-10-22T06-01-18Z", "v2.9.0-4100"])
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "v*"], directory: repository.path)
        #expect(
            result.step("gate")?.message == """
                - 'Binary' (Release) has version '3.0.0', defined at Binary/Info.plist (CFBundleShortVersionString), expected greater than '3.0.0' of release tag 'v3.0.0-4321_2014-10-22T06-01-18Z'
                - 'Binary' (Release) has build '4146', defined at Binary/Info.plist (CFBundleVersion), expected greater than '4321' of release tag 'v3.0.0-4321_2014-10-22T06-01-18Z'
                """)
    }

    /// A release pipeline that tags its release and runs again finds its own tag on HEAD: that one does not count;
    /// the same tag on an earlier commit, or a tag on HEAD for another build, does.
    @Test func aReRunIsNotRejectedByItsOwnTag() async throws {
        let repository = try await Self.repository("binary-plist", tags: ["v3.0.0-4146", "v2.9.0-4100"])
        defer { repository.remove() }
        let rerun = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "v*"], directory: repository.path)
        #expect(rerun.statuses == ["gate=ok"])
        #expect(rerun.step("gate")?.outputs["latest_tag"] == .string("v2.9.0-4100"))

        try await repository.git("commit", "-q", "--allow-empty", "-m", "later")
        let later = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "v*"], directory: repository.path)
        #expect(later.statuses == ["gate=rejected"])
        #expect(later.step("gate")?.message?.contains("expected greater than '3.0.0' of release tag 'v3.0.0-4146'") == true)
    }

    @Test func rejectsABuildNotAboveTheLastReleasedOneWithABuildPattern() async throws {
        let repository = try await Self.repository("binary-plist", tags: ["release-2.9.0-b5000", "release-2.8.0-b4000"])
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "release-*", "build_pattern": "-b([0-9]+)$"], directory: repository.path)
        #expect(
            result.step("gate")?.message
                == "'Binary' (Release) has build '4146', defined at Binary/Info.plist (CFBundleVersion), expected greater than '5000' of release tag 'release-2.9.0-b5000'")
        // Without the pattern, these tags carry no build number by the default rule, so only the version counts.
        let plain = try await GatePipelines.runGate("gate.versions", ["tag_pattern": "release-*"], directory: repository.path)
        #expect(plain.statuses == ["gate=ok"])
    }

    @Test func rejectsAVersionOtherThanTheBumpsAndChecksVersionFiles() async throws {
        let repository = try await Self.repository("binary-plist")
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["expected_version": "3.0.1"], directory: repository.path)
        #expect(
            result.step("gate")?.message == "'Binary' (Release) has version '3.0.0', defined at Binary/Info.plist (CFBundleShortVersionString), expected '3.0.1' (expected_version)"
        )
        let text = GatePipelines.text([
            ["id": "bump", "uses": "version.read", "with": ["project": "Binary.xcodeproj"]],
            ["id": "gate", "uses": "gate.versions", "gate": true, "with": ["expected_version": "${steps.bump.outputs.version}"]],
        ])
        let (chained, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = repository.path })
        #expect(chained.statuses == ["bump=ok", "gate=ok"])
    }

    @Test func readsVersionFiles() async throws {
        let directory = TestPipelines.temporaryDirectory()
        try GatePipelines.write("3.0\n", "VERSION", in: directory)
        let result = try await GatePipelines.runGate("gate.versions", ["file": "VERSION"], directory: directory)
        #expect(result.step("gate")?.message == "'VERSION' has no build number (CFBundleVersion / CURRENT_PROJECT_VERSION)")
        try GatePipelines.write("3.0-rc1+12\n", "VERSION", in: directory)
        let bad = try await GatePipelines.runGate("gate.versions", ["file": "VERSION"], directory: directory)
        #expect(bad.step("gate")?.message == "'VERSION' has version '3.0-rc1', defined at VERSION:1 (version), expected one to three dot-separated integers for App Store Connect")
    }

    @Test func unknownConfigurationFailsAndOptionsAreChecked() async throws {
        let repository = try await Self.repository("binary-plist")
        defer { repository.remove() }
        let result = try await GatePipelines.runGate("gate.versions", ["configuration": "AdHoc"], directory: repository.path)
        #expect(result.statuses == ["gate=rejected"])
        #expect(result.step("gate")?.message == "option 'configuration': 'Binary.xcodeproj' has no configuration 'AdHoc' (configurations: 'Debug', 'Release')")
        #expect(throws: StepError.invalidOption("build_pattern", "reads tags, but 'tag_pattern' is not set")) {
            try VersionsGateStep(options: .with { $0.buildPattern = "-([0-9]+)" })
        }
        #expect(throws: StepError.invalidOption("expected_version", "'3.0.0-beta' is not one to three dot-separated integers")) {
            try VersionsGateStep(options: .with { $0.expectedVersion = "3.0.0-beta" })
        }
    }

    @Test(
        arguments: [
            ("v3.0.0-4321_2014-10-22T06-01-18Z", [3, 0, 0], "4321"),
            ("v3.0.0+4321", [3, 0, 0], "4321"),
            ("release/2.10", [2, 10], nil),
            ("v3.0.0-beta1", [3, 0, 0], nil),
            ("app-1.2.3.4", [1, 2, 3], nil),
        ] as [(String, [Int], String?)])
    func readsVersionAndBuildFromTags(tag: String, version: [Int], build: String?) throws {
        let (parsed, end) = try #require(VersionsGateStep.version(inTag: tag))
        #expect(parsed == version)
        #expect(VersionsGateStep.build(inTag: tag, after: end) == build)
    }

    @Test func comparesNumerically() {
        #expect(VersionsGateStep.compare([3, 10], [3, 9, 9]) == 1)
        #expect(VersionsGateStep.compare([3, 0], [3, 0, 0]) == 0)
        #expect(VersionsGateStep.integers("1.2.3.4") == nil)
        #expect(VersionsGateStep.integers("01.2") == [1, 2])
        #expect(VersionsGateStep.integers("1..2") == nil)
    }
}
