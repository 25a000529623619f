import ArgumentParser
import Foundation
import Rehearsal
import ReleaseExecution
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport

/// `release run`: runs a pipeline.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: preflight every step, then run them in parallel.",
        discussion: """
            Exit codes: 0 success, 1 a step failed, 2 a validation gate rejected the release, 64 bad command line, \
            65 invalid pipeline file, 130 interrupted (after always-steps ran).
            """
    )

    @OptionGroup var pipeline: PipelineArguments

    @Flag(help: "Describe every side effect instead of doing it; read-only checks really run.")
    var dryRun = false

    @Option(help: "How many steps may run at once (default: the number of cores).")
    var jobs: Int?

    @Option(
        help: "Run only this step and the steps it needs (repeatable).",
        completion: .custom { words, _, prefix in
            PipelineCompletion.escaped(PipelineCompletion.stepIDs(words: words, in: Platform.currentDirectory(), prefix: prefix), for: CompletionShell.requesting?.rawValue)
        })
    var only: [String] = []

    @Flag(help: "Skip steps that succeeded in the previous run with the same inputs.")
    var resume = false

    @Flag(help: "After a failure, keep running steps that do not depend on it.")
    var keepGoing = false

    @Option(help: "Write the run report (steps, statuses, durations, outputs, artifacts) as JSON to this file.")
    var report: String?

    @Flag(
        help:
            "Replace every remote service (GitHub, App Store Connect, HTTP endpoints, Slack) with local stand-ins on 127.0.0.1 and print what they received; a step with no stand-in is skipped. Nothing leaves the machine and no real secret is needed: unset secrets get masked placeholders. Local changes really happen: the version bump, commits, tags and files steps write."
    )
    var rehearse = false

    @Option(help: "Where --rehearse keeps its releases (default: .git/release-rehearsal, or .release/rehearsal).")
    var rehearsalStorage: String?

    @Option(help: "auto, plain, json or github (auto: github on GitHub Actions, colour on a terminal, else plain).")
    var logFormat: LogFormat = .auto

    /// The command line that resumes this run: the same pipeline, profile (the one chosen, named so the journal
    /// matches), variables, `--os`, `--only` and `--rehearse`, with `--resume`.
    func resumeArguments(profile: String?) -> [String] {
        var arguments = ["release", "run"]
        if let file = pipeline.pipeline { arguments.append(file) }
        if let profile { arguments += ["--profile", profile] }
        for variable in pipeline.variables { arguments += ["--var", variable] }
        if let os = pipeline.os { arguments += ["--os", os] }
        for step in only { arguments += ["--only", step] }
        if rehearse { arguments.append("--rehearse") }
        if let rehearsalStorage { arguments += ["--rehearsal-storage", rehearsalStorage] }
        return arguments + ["--resume"]
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, found \(jobs)") }
        if !rehearse, let rehearsalStorage {
            throw ValidationError("--rehearsal-storage '\(rehearsalStorage)' is where --rehearse keeps its releases: add --rehearse, or leave it out")
        }
    }

    func run() async throws {
        let directory = Platform.currentDirectory()
        let validated = try await pipeline.load(directory: directory, format: logFormat)
        let masker = SecretMasker()
        var options = RunOptions(
            workingDirectory: directory, profile: pipeline.profile, variables: try pipeline.parsedVariables(),
            dryRun: dryRun, only: only, resume: resume, keepGoing: keepGoing)
        if let jobs { options.jobs = jobs }
        if let os = pipeline.os { options.os = os }
        var rehearsal: Rehearsal?
        if rehearse {
            do {
                rehearsal = try Rehearsal(
                    storage: rehearsalStorage ?? Rehearsal.defaultStorage(in: directory), environment: options.environment,
                    secrets: Planner.secretNames(in: validated.definition))
            } catch {
                Terminal.writeError("error: cannot start the rehearsal server: \(error)\n")
                throw ExitCode(ExitCodes.stepFailed)
            }
            options.environment = rehearsal!.environment
            options.endpoints = ServiceEndpoints(overrides: rehearsal!.endpoints, isolated: true)
            // A step refusing a placeholder (a certificate file) says what it stands for.
            options.placeholderSecrets = Set(rehearsal!.opaquePlaceholderSecrets)
        }
        defer { rehearsal?.stop() }
        // A dry run sends nothing: secrets this machine lacks get masked placeholders so every step shows what it
        // would do; the header says which, since a real run needs them.
        var dryRunPlaceholders: [String] = []
        if dryRun, rehearsal == nil {
            dryRunPlaceholders = Rehearsal.fillPlaceholders(&options.environment, secrets: Planner.secretNames(in: validated.definition))
            options.placeholderSecrets = Set(dryRunPlaceholders)
        }
        // One real run per checkout at a time, and none before what a killed one left is cleaned up. A dry run
        // changes nothing and needs no lock.
        var checkout: CheckoutRecovery.Session?
        if !dryRun {
            checkout = try await CheckoutRecovery.take(in: directory, command: "release run")
        }
        defer { checkout?.lock.release() }
        let planned: RunService.Planned
        do {
            planned = try await RunService.plan(validated, options: options, masker: masker)
        } catch let error as UsageError {
            throw usageFailure(error)
        }
        if let notice = planned.notice { Terminal.writeError(notice + "\n") }
        let plan = planned.plan
        let journal = planned.journal
        let reporter = logFormat.reporter(masker: masker)
        if let rehearsal, !(reporter is JSONLinesReporter) { Terminal.writeError(rehearsal.header()) }
        // Everything this run lacks, before the first step: one round trip to fix them all.
        let unset = dryRun || rehearsal != nil ? [] : plan.unsetValues
        if !unset.isEmpty, !(reporter is JSONLinesReporter) {
            Terminal.writeError("not set for this run: \(ResolutionError.notSet(unset))\n")
        }
        if !dryRunPlaceholders.isEmpty, !(reporter is JSONLinesReporter) {
            Terminal.writeError("dry run: placeholder values (masked) for secrets not set here: \(dryRunPlaceholders.joined(separator: ", ")); a real run needs them\n")
        }
        let engine = Engine(plan: plan, reporter: reporter, masker: masker, journal: journal)
        Interrupts.shared.handle { count, signal in
            switch count {
            case 1:
                // A hang-up (the terminal closed) is an interrupt like Ctrl-C: the run's key files and keychains
                // must go all the same. Say which it was, for the log that outlives the terminal.
                let cause = signal == SIGINT ? "" : " (\(PlatformSignals.name(signal)))"
                Terminal.writeError("\ninterrupted\(cause): stopping running steps, then running always-steps and teardowns (interrupt again to stop those too)\n")
                engine.interrupt()
            case 2:
                Terminal.writeError("\ninterrupted again: stopping always-steps and their processes; the summary and report follow (interrupt again to quit at once)\n")
                engine.abort()
                // Do not wait out the grace period: the user asked twice.
                _ = ProcessGroups.killAll(SIGKILL)
            default:
                Interrupts.exitNow()
            }
        }
        let result = await engine.run()
        if let rehearsal {
            // With JSON events, standard output holds events alone: the summary is one more.
            if let json = reporter as? JSONLinesReporter {
                json.emit(rehearsal.summaryFields().merging(["event": "rehearsal_finished"]) { first, _ in first })
            } else {
                Terminal.writeError("\n" + masker.mask(rehearsal.summary()))
            }
        }
        // A run that did not finish ends with what it left changed and how to resume it, on standard error in every
        // log format (JSON events keep standard output, and their run report already lists each step's outputs).
        if let aftermath = RunAftermath(result, resumeCommand: resumeArguments(profile: plan.profile), workingDirectory: directory) {
            Terminal.writeError("\n" + masker.mask(aftermath.text))
        }
        var exitCode = result.exitCode
        if let report {
            do {
                try RunReport.write(result, to: report, masker: masker)
            } catch {
                Terminal.writeError("error: cannot write the report '\(report)': \(error)\n")
                // The run did its work but what was asked for is missing: not a success.
                if exitCode == ExitCodes.success { exitCode = ExitCodes.stepFailed }
            }
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
