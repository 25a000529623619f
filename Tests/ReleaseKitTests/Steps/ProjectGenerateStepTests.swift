import Foundation
import Testing

@testable import ReleaseSteps
@testable import ReleaseSupport

/// `project.generate` against the fake `pod`, `bundle` and `xcodegen` of Fixtures/FakeTools, which refuse as the real
/// tools do (a Podfile's Bundler guard outside `bundle exec`, a missing spec): the preflight says what is missing before
/// anything runs, the run goes through the context, and the project or workspace written is the `path` output.
@Suite struct ProjectGenerateStepTests {
    static let fakeTools = FixturePaths.fixture("FakeTools").path

    /// A folder with the given files, a fake-call log, and contexts whose PATH starts with the fakes (or lacks them).
    final class Setup: Sendable {
        let folder: String
        let log: String
        let events = Recorder<StepEvent>()

        init(_ files: [String: String]) throws {
            folder = TestPipelines.temporaryDirectory()
            log = folder + "/.calls.jsonl"
            for (path, text) in files {
                let full = folder + "/" + path
                try FileManager.default.createDirectory(atPath: FilePath.parent(of: full), withIntermediateDirectories: true)
                try text.write(toFile: full, atomically: true, encoding: .utf8)
            }
        }

        func context(fakes: Bool = true, dryRun: Bool = false, extra: [String: String] = [:]) -> StepContext {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = (fakes ? ProjectGenerateStepTests.fakeTools + ":" : "") + "/usr/bin:/bin"
            environment["RELEASE_FAKE_LOG"] = log
            for name in ["BUNDLE_GEMFILE", "BUNDLE_BIN_PATH"] { environment.removeValue(forKey: name) }
            environment.merge(extra) { _, new in new }
            return StepContext(
                stepID: "generate", kind: ProjectGenerateStep.kind, workingDirectory: folder, environment: environment, isDryRun: dryRun,
                sink: { [events] in events.append($0) })
        }

        /// Each recorded call: (tool, argv, cwd).
        func calls() throws -> [(tool: String, argv: [String], cwd: String)] {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
            return try text.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return (object["tool"] as? String ?? "", object["argv"] as? [String] ?? [], object["cwd"] as? String ?? "")
            }
        }

        var warnings: [String] { events.all.compactMap { if case .warning(let text) = $0 { return text } else { return nil } } }
    }

    static func step(_ json: String) throws -> ProjectGenerateStep {
        try ProjectGenerateStep(options: decodeOptions(ProjectGenerateStep.Options.self, json))
    }

    static func failure(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let guardedPodfile = "raise 'Please run CocoaPods via `bundle exec`' unless defined?(Bundler)\n\ntarget 'Demo' do\nend\n"
    static let pbxproj = "// !$*UTF8*$!\n{\n\tobjects = {\n\t};\n}\n"

    @Test func podInstallWritesTheWorkspaceNamedAfterTheProjectBesideThePodfile() async throws {
        let setup = try Setup(["ios/Podfile": "target 'Demo' do\nend\n", "ios/Demo.xcodeproj/project.pbxproj": Self.pbxproj])
        let step = try Self.step(#"{"tool": "cocoapods", "spec": "ios/Podfile", "arguments": ["--repo-update"]}"#)
        let context = setup.context()
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.first == .command(argv: ["pod", "install", "--repo-update"], directory: setup.folder + "/ios"))
        #expect(plan.outputs["path"] == .path(setup.folder + "/ios/Demo.xcworkspace"))
        let outputs = try await step.run(in: context)
        #expect(outputs["path"] == .path(setup.folder + "/ios/Demo.xcworkspace"))
        #expect(FileManager.default.fileExists(atPath: setup.folder + "/ios/Demo.xcworkspace/contents.xcworkspacedata"))
        let calls = try setup.calls()
        #expect(calls.map(\.tool) == ["pod"] && calls.first?.argv == ["install", "--repo-update"])
        #expect(calls.first.map { Platform.canonicalPath($0.cwd) == Platform.canonicalPath(setup.folder + "/ios") } == true)
    }

    @Test func aGemfileThatPinsCocoaPodsRunsPodThroughBundleExec() async throws {
        let setup = try Setup([
            "Podfile": Self.guardedPodfile, "Demo.xcodeproj/project.pbxproj": Self.pbxproj, "Gemfile": "source 'https://rubygems.org'\ngem 'cocoapods', '~> 1.15'\n",
        ])
        let step = try Self.step(#"{"tool": "cocoapods"}"#)
        let context = setup.context()
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.first == .command(argv: ["bundle", "exec", "pod", "install"], directory: setup.folder))
        _ = try await step.run(in: context)
        #expect(try setup.calls().map(\.tool) == ["bundle", "pod"])
        #expect(FileManager.default.fileExists(atPath: setup.folder + "/Demo.xcworkspace"))
    }

    @Test func aPodfileGuardWithBundlerTurnedOffFailsInPreflightAndTheFakeRefusesLikeCocoaPods() async throws {
        let setup = try Setup(["Podfile": Self.guardedPodfile, "Demo.xcodeproj/project.pbxproj": Self.pbxproj, "Gemfile": "gem 'cocoapods'\n"])
        let step = try Self.step(#"{"tool": "cocoapods", "bundler": false}"#)
        let context = setup.context()
        #expect(await Self.failure { try await step.verify(in: context) } == "Podfile:1 stops CocoaPods outside 'bundle exec': set bundler: true (or leave bundler out)")
        // Run anyway, as a pipeline without this preflight would: CocoaPods' own refusal, its exit status kept.
        #expect(await Self.failure { _ = try await step.run(in: context) } == "'pod install' exited with status 1")
        #expect(!FileManager.default.fileExists(atPath: setup.folder + "/Demo.xcworkspace"))
    }

    @Test func aPodfileGuardWithoutAGemfileSaysToAddOne() async throws {
        let setup = try Setup(["Podfile": Self.guardedPodfile])
        let step = try Self.step(#"{"tool": "cocoapods"}"#)
        #expect(
            await Self.failure { try await step.verify(in: setup.context()) }
                == "Podfile:1 stops CocoaPods outside 'bundle exec', and there is no Gemfile: add one that pins cocoapods")
        let explicit = try Self.step(#"{"tool": "cocoapods", "bundler": true}"#)
        #expect(
            await Self.failure { try await explicit.verify(in: setup.context()) }
                == "bundler: no Gemfile in . or above it for 'bundle exec pod': add one that pins cocoapods, or set bundler: false")
    }

    @Test func aMissingInputIsNamedWithWhereItWasLookedFor() async throws {
        let setup = try Setup(["README.md": "no spec here\n"])
        #expect(
            await Self.failure { try await Self.step(#"{"tool": "xcodegen"}"#).verify(in: setup.context()) }
                == "no XcodeGen spec 'project.yml' (looked for project.yml in .): 'xcodegen generate --spec project.yml' reads it; set 'spec' to where it is")
        #expect(
            await Self.failure { try await Self.step(#"{"tool": "cocoapods", "spec": "ios/Podfile"}"#).verify(in: setup.context()) }
                == "no Podfile 'ios/Podfile': 'pod install' reads it; set 'spec' to where it is")
        #expect(
            await Self.failure { try await Self.step(#"{"tool": "tuist"}"#).verify(in: setup.context()) }
                == "no Tuist manifest 'Project.swift' (looked for Workspace.swift and Project.swift in .): 'tuist generate --no-open' reads it; set 'spec' to where it is")
    }

    @Test func aMissingToolFailsARunsPreflightWithHowToInstallItAndOnlyWarnsInADryRun() async throws {
        let setup = try Setup(["project.yml": "name: Spaceship\n", "App/Project.swift": #"let project = Project(name: "Rocket", targets: [])"# + "\n"])
        let xcodegen = try Self.step(#"{"tool": "xcodegen"}"#)
        #expect(await Self.failure { try await xcodegen.verify(in: setup.context(fakes: false)) } == "xcodegen not on PATH: brew install xcodegen")
        try await xcodegen.verify(in: setup.context(fakes: false, dryRun: true))
        #expect(setup.warnings == ["xcodegen not on PATH here: brew install xcodegen (its command is shown as it would run)"])
        // Tuist: the manifest's folder, and the workspace named in it.
        let tuist = try Self.step(#"{"tool": "tuist", "spec": "App"}"#)
        #expect(await Self.failure { try await tuist.verify(in: setup.context(fakes: false)) }?.hasPrefix("tuist not on PATH: ") == true)
        let plan = try await tuist.plan(in: setup.context(fakes: false, dryRun: true))
        #expect(plan.effects.first == .command(argv: ["tuist", "generate", "--no-open"], directory: setup.folder + "/App"))
        #expect(plan.outputs["path"] == .path(setup.folder + "/App/Rocket.xcworkspace"))
    }

    /// The `release` binary beside the test bundle, which the fake xcodegen reads the spec with.
    static var releaseBinary: String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return [beside, beside.deletingLastPathComponent(), FixturePaths.root.appendingPathComponent(".build/debug")]
            .map { $0.appendingPathComponent("release").path }.first(where: FileManager.default.isExecutableFile(atPath:))
    }

    @Test(.enabled(if: releaseBinary != nil)) func xcodegenWritesTheProjectTheSpecNamesAndAStepThatWroteNothingFails() async throws {
        let spec = """
            name: Spaceship
            settings:
              MARKETING_VERSION: 2.4.0
              CURRENT_PROJECT_VERSION: 31
            targets:
              Spaceship:
                type: application
                platform: iOS

            """
        let setup = try Setup(["app/project.yml": spec])
        let step = try Self.step(#"{"tool": "xcodegen", "spec": "app/project.yml"}"#)
        let context = setup.context(extra: ["RELEASE_FAKE_RELEASE": Self.releaseBinary ?? ""])
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.first == .command(argv: ["xcodegen", "generate", "--spec", "project.yml"], directory: setup.folder + "/app"))
        #expect(plan.outputs["path"] == .path(setup.folder + "/app/Spaceship.xcodeproj"))
        let outputs = try await step.run(in: context)
        #expect(outputs["path"] == .path(setup.folder + "/app/Spaceship.xcodeproj"))
        let written = try String(contentsOfFile: setup.folder + "/app/Spaceship.xcodeproj/project.pbxproj", encoding: .utf8)
        #expect(written.contains("MARKETING_VERSION = 2.4.0;"), "\(written)")

        // An `output` the tool does not write: the run fails, naming it.
        let wrong = try Self.step(#"{"tool": "xcodegen", "spec": "app/project.yml", "output": "app/Other.xcodeproj"}"#)
        #expect(
            await Self.failure { _ = try await wrong.run(in: context) }
                == "'xcodegen generate --spec project.yml' succeeded but wrote no 'app/Other.xcodeproj' (named in 'output')")
    }

    @Test func badOptionValuesAreRejectedBeforeAnythingRuns() throws {
        #expect(throws: StepError.invalidOption("spec", "must not be empty")) { try Self.step(#"{"tool": "xcodegen", "spec": " "}"#) }
        #expect(throws: StepError.invalidOption("arguments", "an argument is empty")) { try Self.step(#"{"tool": "cocoapods", "arguments": [""]}"#) }
        #expect(throws: (any Error).self) { try Self.step(#"{"tool": "carthage"}"#) }
    }

    @Test func theStarterAndTheStepReadBundlerTheSameWay() {
        #expect(ProjectGenerator.bundlerGuardLine(podfile: Self.guardedPodfile) == 1)
        #expect(ProjectGenerator.bundlerGuardLine(podfile: "unless ENV['BUNDLE_GEMFILE']\n  abort 'use bundler'\nend\n") == 2)
        #expect(ProjectGenerator.bundlerGuardLine(podfile: "target 'Demo' do\n  pod 'Alamofire'\nend\n") == nil)
        #expect(ProjectGenerator.gemfile("gem \"xcodegen\", \"~> 2.4\"\n", pins: "xcodegen"))
        #expect(ProjectGenerator.gemfile("  gem('cocoapods')\n", pins: "cocoapods"))
        #expect(!ProjectGenerator.gemfile("gem 'cocoapods-keys'\n", pins: "cocoapods"))
    }
}
