import ArgumentParser
import Foundation
import Rehearsal
import ReleaseExecution
import ReleasePipeline
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
        completion: .pipeline { words, directory, prefix in PipelineCompletion.stepIDs(words: words, in: directory, prefix: prefix) })
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

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, found \(jobs)") }
        if !rehearse, let rehearsalStorage {
            throw ValidationError("--rehearsal-storage '\(rehearsalStorage)' is where --rehearse keeps its releases: add --rehearse, or leave it out")
        }
    }

    func run() async throws {
        let request = RunService.Request(
            pipeline: pipeline.pipeline, profile: pipeline.profile, variables: try pipeline.parsedVariables(),
            variableArguments: pipeline.variables, os: pipeline.os, dryRun: dryRun, jobs: jobs, only: only, resume: resume,
            keepGoing: keepGoing, report: report, rehearse: rehearse, rehearsalStorage: rehearsalStorage)
        let logFormat = logFormat
        let service = RunService(
            directory: Platform.currentDirectory(), environment: ProcessInfo.processInfo.environment, console: TerminalConsole(),
            standIns: RehearsalStandIns(), reporter: { logFormat.reporter(masker: $0) }, started: Self.handleInterrupts)
        do {
            try await service.run(request)
        } catch {
            throw error.exit(format: logFormat)
        }
    }

    /// Ctrl-C (or a hang-up) stops the run's steps, then its always-steps and teardowns; a second one stops those
    /// too; a third quits at once.
    static func handleInterrupts(_ engine: Engine) {
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
    }
}
