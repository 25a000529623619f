import Foundation
import Testing

/// The `release` binary on real pipelines in real folders: exit codes, output, files, reports.
@Suite struct RunCommandTests {
    @Test func versionPrintsTheVersion() throws {
        let outcome = try ReleaseBinary.run(["--version"], in: ReleaseBinary.temporaryDirectory())
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "0.1.0\n")
    }

    @Test func runsAPipelineOnAReleaseBranchAndWritesTheReport() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "release/3.0.0")
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "engine.json", "--jobs", "2", "--report", "report.json"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n").map { String($0.dropFirst(21)) }
        #expect(lines[0] == "release: engine-demo (engine.json)")
        #expect(lines[1] == "  branch:  release/3.0.0")
        #expect(lines[2] == "  profile: release (when: branch matches 'release*')")
        #expect(lines.contains("  publish │ Build: 3.0.1 (4321)"))
        #expect(lines.contains { $0.hasPrefix("  publish │ Tag: v3.0.1-4321_20") && $0.hasSuffix("Z") })
        // The format exactly; the figure is the machine's (the reporter's own tests fix the clock).
        #expect(lines.contains { $0.range(of: #"^release finished in [0-9]+(\.[0-9])?s \(exit 0\)$"#, options: .regularExpression) != nil })
        #expect(try String(contentsOfFile: directory + "/out/a.txt", encoding: .utf8) == "a\n")
        #expect(FileManager.default.fileExists(atPath: directory + "/cleanup.marker"))

        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as! [String: Any]
        #expect(report["exit_code"] as? Int == 0)
        #expect(report["profile"] as? String == "release")
        let steps = report["steps"] as! [[String: Any]]
        #expect(steps.map { $0["id"] as! String } == ["prepare", "version", "build-a", "build-b", "check", "publish", "cleanup"])
        #expect(steps.allSatisfy { $0["status"] as? String == "ok" })
        let artifacts = steps[2]["artifacts"] as! [[String: Any]]
        #expect(artifacts.first?["size"] as? Int == 2)
        #expect(artifacts.first?["sha256"] as? String == "87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7")
        #expect((steps[1]["outputs"] as? [String: Any])?["version"] as? String == "3.0.1")
    }

    @Test func theDefaultProfileSkipsReleaseOnlySteps() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "develop")
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "engine.json"], in: directory)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("  profile: adhoc (default)"))
        #expect(outcome.stderr.contains("○ publish skipped: when: profile is 'release' is false"))
    }

    @Test func dryRunChangesNothingAndRunsReadOnlyChecks() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "release/3.0.0")
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "engine.json", "--dry-run"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("dry run: nothing will be changed"))
        #expect(outcome.stderr.contains("◇ build-a (shell) would:\n"))
        // The script of an argv `sh -c` gets its values as variables, as a `shell: true` script does (issue 40 F1).
        #expect(outcome.stderr.contains(#"    run: sh -c 'sleep 1; echo a > "${RELEASE_V_1}"/a.txt'"#), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("✔ version"), "read-only steps really run")
        #expect(outcome.stderr.contains("Build: 3.0.1 (4321)"), "outputs of read-only steps flow downstream")
        let contents = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
        #expect(contents == ["engine.json"], "a dry run writes nothing")
    }

    @Test func aFailedStepExitsOneSkipsDependentsAndStillCleansUp() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/step-fails.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "step-fails.json"], in: directory)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("compile │ error: no such module"))
        #expect(outcome.stderr.contains("✘ compile failed after"))
        #expect(outcome.stderr.contains("exited with status 65"))
        #expect(outcome.stderr.contains("⊘ package blocked: 'compile' failed"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/packaged.marker"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cleanup.marker"))
    }

    @Test func aRejectingGateExitsTwoBlocksPublishAndRunsAlwaysSteps() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/gate-fails.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "gate-fails.json"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("✘ versions-agree rejected the release"))
        #expect(outcome.stderr.contains("a validation gate rejected the release"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/published.marker"))
        #expect(FileManager.default.fileExists(atPath: directory + "/certificate-removed.marker"))
    }

    @Test func anInterruptStopsTheStepRunsAlwaysStepsAndExits130() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/interrupt.json", to: directory)
        let started = Date()
        let outcome = try ReleaseBinary.run(["run", "interrupt.json"], in: directory, interruptOnceExists: directory + "/archive.started")
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(Date().timeIntervalSince(started) < 300, "the 10-minute step was stopped, not waited for")
        #expect(outcome.stderr.contains("interrupted: stopping running steps"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/certificate.marker"), "the always step removed the certificate")
        #expect(!FileManager.default.fileExists(atPath: directory + "/archived.marker"))
    }

    @Test func secretsNeverReachTheOutputOrTheReport() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/secrets.json", to: directory)
        let token = "ghp_E2eSecretValue0123456789"
        for format in ["plain", "json", "github"] {
            let outcome = try ReleaseBinary.run(
                ["run", "secrets.json", "--log-format", format, "--report", "r.json"], in: directory,
                environment: ["RELEASE_E2E_TOKEN": token])
            #expect(outcome.status == 1)
            let report = try String(contentsOfFile: directory + "/r.json", encoding: .utf8)
            for text in [outcome.stdout, outcome.stderr, report] {
                #expect(!text.contains(token))
                #expect(!text.contains(Data(token.utf8).base64EncodedString()))
            }
            // JSON events go to standard output, the rest to standard error.
            #expect((outcome.stdout + outcome.stderr).contains("token=***"))
        }
    }

    /// Ten spellings of a secret (raw, JSON-escaped twice, percent-encoded four ways, form-encoded, base64 alone and
    /// inside Basic-auth credentials), printed by a step before any step refers to the secret, carried in an output
    /// and a failure: none reaches the output, the report or the resume journal, in any log format.
    @Test func noSpellingOfASecretLeavesInAnyFormat() throws {
        let token = "ghp_A1b2~C3.d4-E5_f6:g7/h8+i9 j0&k=x"
        let encodings: [String] = {
            func percent(_ allowed: CharacterSet) -> String { token.addingPercentEncoding(withAllowedCharacters: allowed)! }
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
            return [
                token, token.replacingOccurrences(of: "/", with: "\\/"), percent(.alphanumerics),
                percent(.alphanumerics).lowercased(), percent(unreserved), percent(unreserved).replacingOccurrences(of: "%20", with: "+"),
                base64(token), base64("x-access-token:" + token), base64(token + ":x-oauth-basic"), base64("user:" + token),
            ]
        }()
        for format in ["plain", "json", "github"] {
            let directory = try ReleaseBinary.gitRepository(branch: "main")
            try ReleaseBinary.copyFixture("Pipelines/valid/secrets-everywhere.json", to: directory, as: "p.json")
            let outcome = try ReleaseBinary.run(
                ["run", "p.json", "--log-format", format, "--report", "r.json"], in: directory,
                environment: ["RELEASE_E2E_TOKEN": token])
            #expect(outcome.status == 1, "\(outcome.stderr)")
            var texts = [
                ("stdout", outcome.stdout), ("stderr", outcome.stderr),
                ("report", try String(contentsOfFile: directory + "/r.json", encoding: .utf8)),
            ]
            let journalFolder = directory + "/.git/release-journal"
            let journals = (try? FileManager.default.contentsOfDirectory(atPath: journalFolder)) ?? []
            for name in journals { texts.append(("journal \(name)", try String(contentsOfFile: journalFolder + "/" + name, encoding: .utf8))) }
            #expect(!journals.isEmpty, "the failed run keeps its journal for --resume")
            for (label, text) in texts {
                for (index, encoding) in encodings.enumerated() {
                    #expect(!text.contains(encoding), "\(format) \(label): encoding \(index) leaked")
                }
            }
            // The masked lines are in the log: on stdout as JSON events, on stderr in the other formats.
            #expect((format == "json" ? outcome.stdout : outcome.stderr).contains("form=***"), "\(format)")
        }
    }

    @Test func githubActionsGetsGroupsAndErrorAnnotations() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/step-fails.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "step-fails.json"], in: directory, environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.status == 1)
        // The group opens when the step starts, so its lines stream live; the verdict closes it.
        #expect(outcome.stderr.contains("::group::▶ compile (shell)\n$ sh -c"))
        #expect(outcome.stderr.contains("compile (shell): failed"))
        #expect(outcome.stderr.contains("::endgroup::"))
        #expect(outcome.stderr.contains("::error title=step compile failed::'sh -c"))
    }

    @Test func jsonLogsAreOneObjectPerLine() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/gate-fails.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "gate-fails.json", "--log-format", "json"], in: directory)
        #expect(outcome.status == 2)
        let events = try outcome.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(events.first?["event"] as? String == "run_started")
        #expect(events.last?["event"] as? String == "run_finished")
        #expect(events.last?["exit_code"] as? Int == 2)
        #expect(events.contains { $0["event"] as? String == "step_finished" && $0["step"] as? String == "publish" && $0["status"] as? String == "blocked" })
    }

    @Test func badCommandLinesExit64() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let unknownProfile = try ReleaseBinary.run(["run", "engine.json", "--profile", "relase"], in: directory)
        #expect(unknownProfile.status == 64)
        #expect(unknownProfile.stderr == "error: unknown profile 'relase' (did you mean 'release'?); profiles: release, adhoc\n")
        let unknownFlag = try ReleaseBinary.run(["run", "--no-such-flag"], in: directory)
        #expect(unknownFlag.status == 64)
        let badVar = try ReleaseBinary.run(["run", "engine.json", "--var", "novalue"], in: directory)
        #expect(badVar.status == 64)
        #expect(badVar.stderr.contains("--var takes KEY=VALUE, found 'novalue'"))
        let badJobs = try ReleaseBinary.run(["run", "engine.json", "--jobs", "0"], in: directory)
        #expect(badJobs.status == 64)
    }
}

@Suite struct ValidateAndPlanTests {
    static let invalid = ReleaseBinary.root.appendingPathComponent("Fixtures/Pipelines/invalid")
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: invalid.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()

    @Test(arguments: names)
    func validatePrintsEveryProblemAndExits65(name: String) throws {
        let outcome = try ReleaseBinary.run(["validate", name], in: Self.invalid.path)
        #expect(outcome.status == 65)
        let expected = try String(contentsOf: Self.invalid.appendingPathComponent(String(name.dropLast(5)) + ".expected"), encoding: .utf8)
        let count = expected.split(separator: "\n").count
        #expect(outcome.stderr == expected + "\(name): \(count) problem\(count == 1 ? "" : "s")\n")
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    @Test func runAndPlanAlsoExit65OnAnInvalidFile() throws {
        for command in ["run", "plan"] {
            let outcome = try ReleaseBinary.run([command, "cycle.json"], in: Self.invalid.path)
            #expect(outcome.status == 65)
            #expect(outcome.stderr.contains("cycle.json:4:5: error: $.steps[0].needs: steps wait for each other in a cycle: a -> b -> c -> a"))
        }
    }

    @Test func pipelineErrorsBecomeAnnotationsOnGitHubActions() throws {
        let outcome = try ReleaseBinary.run(["validate", "missing-need.json"], in: Self.invalid.path, environment: ["GITHUB_ACTIONS": "true"])
        #expect(
            outcome.stderr.hasPrefix(
                "::error file=missing-need.json,line=5,col=45::$.steps[1].needs[0]: step 'zip' needs 'archiv', which is not a step (did you mean 'archive'?)\n"))
    }

    @Test func aMissingPipelineIsAClearError() throws {
        let outcome = try ReleaseBinary.run(["run"], in: ReleaseBinary.temporaryDirectory())
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("Pipelines/release.json: error: no such file"))
    }

    @Test func planPrintsTextJSONAndDot() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "release/3.0.0")
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let text = try ReleaseBinary.run(["plan", "engine.json"], in: directory)
        #expect(text.status == 0)
        #expect(text.stdout.contains("profile:  release (when: branch matches 'release*')"))
        #expect(text.stdout.contains("6. publish  print\n   needs: check, version (uses its outputs)"))
        let json = try ReleaseBinary.run(["plan", "engine.json", "--format", "json", "--profile", "adhoc"], in: directory)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["profile"] as? String == "adhoc")
        let steps = object["steps"] as! [[String: Any]]
        #expect(steps.first { $0["id"] as? String == "publish" }?["run"] as? Bool == false)
        let dot = try ReleaseBinary.run(["plan", "engine.json", "--format", "dot"], in: directory)
        #expect(dot.stdout.hasPrefix("digraph \"engine-demo\" {"))
        #expect(dot.stdout.contains("\"check\" [label=\"check\\nshell\", shape=diamond];"))
    }

    @Test func stepsListsEveryKindAsTextAndJSON() throws {
        let text = try ReleaseBinary.run(["steps"], in: ReleaseBinary.temporaryDirectory())
        #expect(text.stdout.contains("shell\n  Run a command"))
        let json = try ReleaseBinary.run(["steps", "--json"], in: ReleaseBinary.temporaryDirectory())
        let kinds = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(kinds.contains { $0["kind"] as? String == "shell" })
        for kind in kinds {
            let example = kind["example"] as! String
            #expect((try? JSONSerialization.jsonObject(with: Data(example.utf8))) != nil, "example of \(kind["kind"]!) is JSON")
        }
    }
}

/// Every pipeline shipped in Pipelines/ validates and dry-runs.
@Suite struct ShippedPipelinesTests {
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: ReleaseBinary.root.appendingPathComponent("Pipelines").path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test func thereAreShippedPipelines() {
        #expect(!Self.names.isEmpty)
    }

    @Test(arguments: names)
    func validates(name: String) throws {
        let outcome = try ReleaseBinary.run(["validate", "Pipelines/\(name)"], in: ReleaseBinary.root.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test(arguments: names)
    func dryRunsOnTheDemoProjectChangingNothing(name: String) throws {
        let directory = try ReleaseBinary.prepareDemo()
        let outcome = try ReleaseBinary.run(
            ["run", "Pipelines/\(name)", "--dry-run", "--rehearse", "--rehearsal-storage", directory + "/../rehearsal-\(name)"],
            in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("dry run finished: nothing was changed"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/build"))
    }

    @Test func distributeChoosesTheProfileByBranch() throws {
        let directory = try ReleaseBinary.prepareDemo()
        try ReleaseBinary.git(["checkout", "-q", "-b", "release/3.0.0"], in: directory)
        let release = try ReleaseBinary.run(["run", "distribute", "--dry-run", "--os", "linux"], in: directory)
        #expect(release.status == 0, "\(release.stderr)")
        #expect(release.stderr.contains("  branch:  release/3.0.0\n"))
        #expect(release.stderr.contains("  profile: release (when: branch matches 'release/*')"))
        #expect(release.stderr.contains("○ publish skipped: uses outputs of 'dsyms', which runs on macos only; see both with --os macos"), "\(release.stderr)")
        #expect(release.stderr.contains("○ archive skipped: runs on macos only (when: os is 'macos'), this is linux; see it with --os macos"))

        try ReleaseBinary.git(["checkout", "-q", "-b", "develop"], in: directory)
        let develop = try ReleaseBinary.run(["run", "distribute", "--dry-run", "--os", "linux"], in: directory)
        #expect(develop.status == 0, "\(develop.stderr)")
        #expect(develop.stderr.contains("  profile: adhoc (default)"))
        #expect(develop.stderr.contains("○ publish skipped: when: profile is 'release' is false"))
        #expect(develop.stderr.contains("✔ version"))
    }
}

@Suite struct ResumeTests {
    @Test func resumeSkipsStepsThatSucceededWithTheSameInputsAndKeepsTheClock() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/resume.json", to: directory)
        let first = try ReleaseBinary.run(["run", "resume.json"], in: directory)
        #expect(first.status == 1)
        #expect(FileManager.default.fileExists(atPath: directory + "/.git/release-journal/resume.json"))
        FileManager.default.createFile(atPath: directory + "/network.up", contents: Data())

        let resumed = try ReleaseBinary.run(["run", "resume.json", "--resume"], in: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("✔ archive (done in the previous run)"))
        #expect(try String(contentsOfFile: directory + "/archive.count", encoding: .utf8) == "run\n", "archive ran once")
        #expect(try String(contentsOfFile: directory + "/uploaded.txt", encoding: .utf8).count == 10, "the first run's output reached upload")
        #expect(!FileManager.default.fileExists(atPath: directory + "/.git/release-journal/resume.json"), "a finished run leaves no journal")

        // Without --resume everything runs again.
        let again = try ReleaseBinary.run(["run", "resume.json"], in: directory)
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: directory + "/archive.count", encoding: .utf8) == "run\nrun\n")
    }

    @Test func resumeReRunsAStepWhoseArtifactChanged() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/resume.json", to: directory)
        _ = try ReleaseBinary.run(["run", "resume.json"], in: directory)
        try "tampered".write(toFile: directory + "/app.zip", atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: directory + "/network.up", contents: Data())
        let resumed = try ReleaseBinary.run(["run", "resume.json", "--resume"], in: directory)
        #expect(resumed.status == 0)
        #expect(try String(contentsOfFile: directory + "/archive.count", encoding: .utf8) == "run\nrun\n")
    }
}

/// Issue 16: `--log-format json` puts events, and only events, on standard output, the rehearsal summary included.
@Suite struct JSONEventsCommandTests {
    @Test func everyStdoutLineIsAnEventAndStderrHasNone() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try ReleaseBinary.copyFixture("Pipelines/valid/engine.json", to: directory)
        let outcome = try ReleaseBinary.run(["run", "engine.json", "--log-format", "json", "--rehearse"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        let events = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)") }
        #expect(events.first?["event"] as? String == "run_started")
        #expect(events.last?["event"] as? String == "rehearsal_finished")
        #expect(events.filter { $0["event"] as? String == "step_finished" }.allSatisfy { $0["step"] is String && $0["id"] == nil })
        #expect(!outcome.stderr.contains("\"event\""), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("rehearsal:"), "\(outcome.stderr)")
    }
}
