import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps

/// The seed's workflow as shipped in Pipelines/distribute.json, planned as on a macOS CI machine.
@Suite struct DistributePipelineTests {
    func plan(branch: String, environment: [String: String] = [:]) async throws -> Plan {
        let path = FixturePaths.root.appendingPathComponent("Pipelines/distribute.json").path
        let pipeline = try PipelineLoader().load(path: path, displayPath: "Pipelines/distribute.json")
        let options = RunOptions(
            workingDirectory: "/tmp", environment: environment, now: Date(timeIntervalSince1970: 1_413_957_678),
            os: "macos", git: GitInfo(branch: branch, sha: "abc", commitCount: 4321))
        return try await Planner().plan(pipeline, options: options)
    }

    @Test func releaseBranchesBuildForTheAppStoreAndPublish() async throws {
        let plan = try await plan(branch: "release/3.0.0")
        #expect(plan.profile == "release")
        #expect(try plan.interpolator.variable("configuration") == "Release")
        #expect(try plan.interpolator.variable("export_method") == "app-store")
        #expect(
            plan.steps.filter(\.willRun).map(\.id) == [
                "version", "signing", "archive", "export",
                "check-dsyms", "dsyms", "zip", "check-ipa", "validate", "itmsp", "notes", "upload", "testflight", "submit", "publish",
            ])
        // No shell strings left for signing, building, exporting or validating. The App Store build signs with what
        // signing.sync finds (or makes) through the API, whose teardown removes the keychain and profiles; the
        // archive's keychain is the one it made.
        #expect(plan.step("signing")?.definition.uses == "signing.sync")
        #expect(plan.step("signing")?.definition.with["type"]?.string == "app-store")
        #expect(plan.step("keychain")?.decision == .skip("when: (profile is 'adhoc') and (os is 'macos') is false"))
        #expect(plan.step("profiles")?.decision == .skip("when: (profile is 'adhoc') and (os is 'macos') is false"))
        // The profile points the archive's keychain and the export's profiles at signing.sync, so the ad hoc
        // signing steps being skipped skips neither.
        #expect(plan.step("archive")?.reads == ["signing"])
        #expect(plan.step("export")?.reads == ["signing", "archive"])
        #expect(plan.step("archive")?.definition.uses == "xcode.archive")
        #expect(plan.step("export")?.definition.uses == "xcode.export")
        #expect(plan.step("validate")?.definition.uses == "appstore.validate")
        #expect(plan.step("validate")?.definition.gate == true)
        #expect(plan.step("submit")?.definition.uses == "appstore.submit")

        // The seed's tag, name, body (with the release notes after it) and asset names.
        var interpolator = plan.interpolator
        interpolator.outputs = [
            "version": ["version": .string("3.0.0"), "build": .string("4321")],
            "notes": ["markdown": .string("### Features\n- sign in with Apple\n")],
        ]
        #expect(try interpolator.variable("tag") == "v3.0.0-4321_2014-10-22T06-01-18Z")
        #expect(try interpolator.string("${build_dir}/${name}.xcarchive.zip") == "build/Demo-3.0.0-4321.xcarchive.zip")
        let publish = try interpolator.node(plan.step("publish")!.definition.with.members!.first { $0.key == "body" }!.value)
        #expect(publish.string == "Build: 3.0.0 (4321)\nUploaded: 2014/10/22 06:01:18\n\n### Features\n- sign in with Apple\n")
        #expect(plan.step("publish")?.definition.with["target_commitish"]?.string == "master")
    }

    @Test func slackHearsOfSuccessAndFailureAfterEveryOtherStepWhenAWebhookIsSet() async throws {
        let plan = try await plan(branch: "release/3.0.0", environment: ["SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/T/B/X"])
        #expect(plan.steps.suffix(2).map(\.id) == ["tell-success", "tell-failure"])
        for id in ["tell-success", "tell-failure"] {
            let step = try #require(plan.step(id))
            #expect(step.decision == .run && step.runsAlways)
            #expect(Set(step.needs) == Set(plan.steps.map(\.id)).subtracting(["tell-success", "tell-failure"]))
        }
        #expect(plan.step("tell-failure")?.definition.with["on"]?.string == "failure")
        #expect(try await self.plan(branch: "release/3.0.0").step("tell-success")?.decision == .skip("when: env SLACK_WEBHOOK_URL matches '*' is false"))
    }

    @Test func otherBranchesBuildAdHocForTesters() async throws {
        let plan = try await plan(branch: "develop", environment: ["TESTERS_UPLOAD_URL": "https://testers.example/upload"])
        #expect(plan.profile == "adhoc")
        #expect(plan.profileReason == "default")
        #expect(try plan.interpolator.variable("configuration") == "AdHoc")
        #expect(plan.step("publish")?.decision == .skip("when: profile is 'release' is false"))
        #expect(plan.step("testers")?.decision == .run)
        // Ad hoc builds sign with the team's files: the certificate in a temporary keychain and the ad hoc profile,
        // both removed by the steps' teardowns.
        #expect(plan.steps.filter(\.willRun).map(\.id).prefix(5) == ["version", "keychain", "profiles", "archive", "export"])
        #expect(plan.step("keychain")?.definition.uses == "signing.keychain")
        #expect(plan.step("profiles")?.definition.uses == "signing.profile")
        #expect(plan.step("signing")?.decision == .skip("when: (profile is 'release') and (os is 'macos') is false"))
        #expect(plan.step("archive")?.reads == ["keychain"])
        #expect(plan.step("export")?.reads == ["profiles", "archive"])
        #expect(plan.step("crash-reporter")?.decision == .skip("when: env CRASH_REPORTER_URL matches '*' is false"))
    }

    @Test func onLinuxTheXcodeStepsAndWhatUsesThemAreSkippedHonestly() async throws {
        let path = FixturePaths.root.appendingPathComponent("Pipelines/distribute.json").path
        let pipeline = try PipelineLoader().load(path: path)
        let plan = try await Planner().plan(
            pipeline,
            options: RunOptions(
                workingDirectory: "/tmp", environment: [:], os: "linux",
                git: GitInfo(branch: "release/3.0.0", sha: "a", commitCount: 1)))
        #expect(plan.step("archive")?.decision == .skip("runs on macos only (when: os is 'macos'), this is linux; see it with --os macos"))
        #expect(plan.step("zip")?.decision == .skip("uses outputs of 'archive', which runs on macos only; see both with --os macos"))
        #expect(plan.step("version")?.decision == .run)
    }
}
