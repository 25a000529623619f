import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps

/// The flows of `release run`, `export` and `init` without the command line: typed requests in, what they say on the
/// console and the ``CommandFailure`` (code and cause) out.
@Suite struct CommandServiceTests {
    /// Stand-ins that cannot start, and placeholders named after the secret.
    struct BrokenStandIns: RunStandInProvider {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "no free port" }
        }

        func start(storage: String?, directory: String, environment: [String: String], secrets: Set<String>, teamID: String?) throws
            -> any RunStandIns
        {
            throw Refused()
        }

        func fillPlaceholders(_ environment: inout [String: String], secrets: Set<String>) -> [String] {
            for name in secrets where environment[name] == nil { environment[name] = "placeholder-\(name)" }
            return secrets.sorted()
        }
    }

    /// A folder holding `Pipelines/NAME.json` with `text`.
    static func project(_ text: String, name: String = "release") throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/Pipelines", withIntermediateDirectories: true)
        try text.write(toFile: directory + "/Pipelines/\(name).json", atomically: true, encoding: .utf8)
        return directory
    }

    static func runService(in directory: String, console: RecordingConsole, reporter: RecordingReporter = RecordingReporter()) -> RunService {
        RunService(directory: directory, environment: [:], console: console, standIns: BrokenStandIns(), reporter: { _ in reporter })
    }

    /// Runs `body` and returns the failure it throws (nil: none).
    static func failure(_ body: () async throws(CommandFailure) -> Void) async -> CommandFailure? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func runWithoutAPipelineIsAnInvalidPipelineWithTheHintToInit() async throws {
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingConsole()
        let failure = try #require(await Self.failure { () async throws(CommandFailure) in try await Self.runService(in: directory, console: console).run(.init()) })
        #expect(failure.code == ExitCodes.invalidPipeline)
        let text = try #require(failure.text(annotations: false))
        #expect(text.hasPrefix("Pipelines/release.json"))
        #expect(text.hasSuffix("1 problem\nhint: no pipeline yet: 'release init' looks at the project and writes a starter Pipelines/release.json\n"))
        // A named pipeline that is missing is only that: the user chose it.
        let named = try #require(await Self.failure { () async throws(CommandFailure) in try await Self.runService(in: directory, console: console).run(.init(pipeline: "other")) })
        #expect(named.text(annotations: false)?.contains("hint:") == false)
    }

    /// Two read-only steps, the second failing: a dry run really runs them, and takes no checkout lock (a real run's
    /// lock marks every process the test process starts, which other tests running beside this one would see).
    static let failing = #"""
        {"version": 1, "steps": [
          {"id": "hello", "uses": "shell", "with": {"run": ["true"], "read_only": true}},
          {"id": "fail", "uses": "shell", "needs": ["hello"], "with": {"run": ["false"], "read_only": true}}
        ]}
        """#

    @Test func aFailedRunIsReportedWithItsExitCode() async throws {
        let directory = try Self.project(Self.failing)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingConsole()
        let reporter = RecordingReporter()
        let request = RunService.Request(variables: ["a": "1"], variableArguments: ["a=1"], dryRun: true, jobs: 1)
        let failure = try #require(
            await Self.failure { () async throws(CommandFailure) in try await Self.runService(in: directory, console: console, reporter: reporter).run(request) })
        #expect(failure.code == ExitCodes.stepFailed)
        guard case .reported = failure.cause else { Issue.record("expected a reported failure, got \(failure.cause)"); return }
        #expect(failure.text(annotations: false) == nil)
        #expect(reporter.started == ["hello", "fail"])
    }

    @Test func stand_insThatCannotStartFailTheRunBeforeAnyStep() async throws {
        let directory = try Self.project(RunServiceTests.text)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reporter = RecordingReporter()
        let failure = try #require(
            await Self.failure { () async throws(CommandFailure) in
                try await Self.runService(in: directory, console: RecordingConsole(), reporter: reporter).run(.init(rehearse: true))
            })
        #expect(failure.code == ExitCodes.stepFailed)
        #expect(failure.text(annotations: false) == "error: cannot start the rehearsal server: no free port\n")
        #expect(reporter.events.isEmpty)
    }

    @Test func theResumeCommandRepeatsWhatChoseTheSteps() {
        let request = RunService.Request(
            pipeline: "ship", variableArguments: ["b=2", "a=1"], os: "macos", only: ["upload"], rehearse: true, rehearsalStorage: "/tmp/r")
        #expect(
            request.resumeArguments(profile: "beta") == [
                "release", "run", "ship", "--profile", "beta", "--var", "b=2", "--var", "a=1", "--os", "macos", "--only", "upload", "--rehearse",
                "--rehearsal-storage", "/tmp/r", "--resume",
            ])
    }

    @Test func exportRefusesARunnerTagMappingBeforeAskingForTheTool() async throws {
        let directory = try Self.project(RunServiceTests.text)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let service = ExportService(directory: directory, environment: [:], console: RecordingConsole())
        // A download source would ask the network: the mistake on the command line is found first.
        let request = ExportService.Request(engine: .gitlabCI, toolSource: "download:https://example.invalid/x", runnerTags: ["macos-15"])
        let failure = try #require(await Self.failure { () async throws(CommandFailure) in try await service.run(request) })
        #expect(failure.code == ExitCodes.usage)
        #expect(failure.text(annotations: false) == "error: --runner-tags 'macos-15': write LABEL=TAG[,TAG], such as macos-15=saas-macos-medium-m1\n")
    }

    @Test func exportWritesTheFileAtomicallyAndSaysWhatItHolds() async throws {
        let directory = try Self.project(RunServiceTests.text)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let console = RecordingConsole()
        let service = ExportService(directory: directory, environment: [:], console: console)
        let output = directory + "/ci/release.yml"
        for engine in ExportService.Engine.allCases {
            try await service.run(.init(engine: engine, output: output, toolSource: "homebrew:owner/homebrew-release"))
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text.contains("release export \(engine.rawValue) Pipelines/release.json"))
            #expect(console.output.isEmpty)
        }
        #expect(console.errors.components(separatedBy: "wrote \(output): 1 job (").count == 3)
        // Without --output the file is the result, on standard output.
        try await service.run(.init(engine: .githubActions, toolSource: "homebrew:owner/homebrew-release"))
        #expect(console.output.hasPrefix("# "))
    }

    @Test func initNeverOverwritesAndSaysNothingWasWritten() throws {
        let directory = try Self.project("{}")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let service = InitService(directory: directory, console: RecordingConsole())
        #expect(throws: CommandFailure.self) { try service.run(.init(yes: true)) }
        do {
            try service.run(.init(yes: true))
        } catch {
            #expect(error.code == 1)
            #expect(error.text(annotations: false)?.hasPrefix("error: Pipelines/release.json already exists; nothing was written") == true)
        }
        #expect(try String(contentsOfFile: directory + "/Pipelines/release.json", encoding: .utf8) == "{}")
    }

    @Test func initRefusesBadAnswersAndAMissingTerminalBeforeReadingTheProject() throws {
        let directory = TestPipelines.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let service = InitService(directory: directory, console: RecordingConsole(interactive: false))
        let cases: [(InitService.Request, String)] = [
            (.init(signing: "magic", yes: true), "error: --signing 'magic' is not one of api-key, files, sync; nothing was written\n"),
            (.init(repository: "nope", yes: true), "error: --repository 'nope' is not a GitHub repository (owner/name); nothing was written\n"),
            (.init(), "error: no terminal to ask on: pass --yes to take the values found (and --scheme, --target, --platform, --signing … to choose); nothing was written\n"),
        ]
        for (request, expected) in cases {
            do {
                try service.run(request)
                Issue.record("expected a usage failure for \(request)")
            } catch {
                #expect(error.code == ExitCodes.usage)
                #expect(error.text(annotations: false) == expected)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/Pipelines"))
    }
}
