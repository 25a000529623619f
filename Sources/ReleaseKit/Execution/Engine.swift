import Foundation
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// Executes a ``Plan``: preflight (every step's `verify`, then `plan`), then the steps in parallel up to
/// `--jobs`, with gates, `always` steps, retries, timeouts and cancellation.
///
/// A dry run is the preflight of a real run followed by the same scheduler, in which steps that change things
/// report what they would do and read-only steps (gates, inspections) really run once what they depend on
/// really ran. So a dry run can only claim what a real run would check too.
package final class Engine: Sendable {
    package let plan: Plan
    let bus: EventBus
    let masker: SecretMasker
    let control = Mutex<Control>(Control())
    /// Succeeded steps of this run (real runs only); with `--resume`, also those of the previous one.
    let journal: RunJournal?
    /// What steps changed on the machine, undone at the end of the run.
    let teardowns = Teardowns()
    /// Warnings steps gave in preflight (`verify`, `plan`), by step. A real run drops them (`run` gives its own); a dry
    /// run shows them as the step's, so it shows what a real run warns about.
    let preflightWarnings = Mutex<[String: [String]]>([:])
    /// What the pipeline's project generation writes (``ProjectGenerateStep/writes(in:)``), for steps that read the
    /// project before it runs.
    let generatedPaths: [String]

    struct Control {
        var interrupted = false
        /// A second interrupt: stop everything now, `always` steps and teardowns included.
        var aborted = false
        /// Running steps' tasks, so an interrupt can cancel them (not `always` steps).
        var running: [String: (task: Task<StepResult, Never>, always: Bool)] = [:]
    }

    /// - Parameter masker: the masker the plan's interpolator registers secrets with.
    /// - Parameter journal: the previous run's journal for `--resume`; a fresh one is kept for real runs.
    package init(plan: Plan, reporter: any RunReporter, masker: SecretMasker, journal: RunJournal? = nil) {
        self.plan = plan
        self.bus = EventBus(reporter: reporter, masker: masker)
        self.masker = masker
        self.generatedPaths = Self.generatedPaths(plan)
        if plan.options.dryRun {
            self.journal = nil
        } else if let journal, plan.options.resume {
            self.journal = journal
        } else {
            let directory = plan.options.journalDirectory ?? plan.options.workingDirectory
            self.journal = RunJournal(
                path: RunJournal.path(for: plan.pipeline.definition.file, in: directory, only: plan.options.only),
                pipeline: plan.pipeline.definition.file, profile: plan.profile, now: plan.options.now,
                workspace: plan.options.workingDirectory, key: RunJournalKey.resolve(environment: plan.options.environment),
                commit: plan.git.sha)
        }
    }

    /// Interrupts the run (SIGINT/SIGTERM): running steps are cancelled (their processes killed), nothing new
    /// starts except `always` steps, which run once what they need has stopped.
    package func interrupt() {
        let tasks = control.withLock { state -> [Task<StepResult, Never>] in
            state.interrupted = true
            return state.running.values.filter { !$0.always }.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    /// A second interrupt (Ctrl-C during cleanup): cancels every running step, `always` steps included, so their
    /// process groups are stopped before `release` exits, and skips the teardowns not yet run (each is reported
    /// as not undone). The run still ends normally, so its summary and report are written.
    package func abort() {
        let tasks = control.withLock { state -> [Task<StepResult, Never>] in
            state.interrupted = true
            state.aborted = true
            return state.running.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    var isInterrupted: Bool { control.withLock { $0.interrupted } }
    var isAborted: Bool { control.withLock { $0.aborted } }

    /// Runs the plan to the end and returns what happened. Never throws: every failure is a step result.
    package func run() async -> RunResult {
        let started = Date()
        let definition = plan.pipeline.definition
        bus.emit(
            .runStarted(
                pipeline: definition.name, file: definition.file, profile: plan.profile,
                profileReason: plan.profileReason, branch: plan.git.branch, dryRun: plan.options.dryRun,
                steps: plan.steps.filter(\.willRun).map(\.id)))
        let scratch = makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        let preflight = await runPreflight(scratch: scratch)
        var results: [String: StepResult] = [:]
        let preflightFailed = !preflight.failures.isEmpty
        if preflightFailed {
            // Nothing runs, in a dry run either (its read-only steps would run on a pipeline known to be broken):
            // every problem was reported once, each step says why it did not run.
            for planned in plan.steps {
                let result = notRun(planned, preflight: preflight)
                results[planned.id] = result
                emitPreflightWarnings(of: result)
                bus.emit(.stepFinished(result))
            }
        } else {
            journal?.save(replacingOthers: !plan.options.resume)
            results = await schedule(preflight: preflight, scratch: scratch)
        }
        let teardownFailures = await runTeardowns()
        let result = RunResult(
            pipeline: definition.name, file: definition.file, profile: plan.profile, branch: plan.git.branch,
            dryRun: plan.options.dryRun, interrupted: isInterrupted, preflightFailed: preflightFailed,
            startedAt: started, duration: Date().timeIntervalSince(started),
            steps: plan.steps.compactMap { results[$0.id] }, teardownFailures: teardownFailures, runner: plan.options.os)
        // A run with --only did part of the pipeline: its journal stays for the rest (the next job of an exported
        // workflow, or a later --resume).
        // A run that ends waiting keeps it too: running the pipeline again continues from it.
        if result.exitCode == ExitCodes.success && !result.dryRun && plan.options.only.isEmpty && result.waiting.isEmpty { journal?.remove() }
        bus.emit(.runFinished(result))
        return result
    }

    // MARK: Contexts

    func makeContext(
        _ planned: PlannedStep, attempt: Int, scratch: String, promisedPaths: [String: String],
        preflight: Bool = false, run: RunStatus? = nil
    ) -> StepContext {
        let bus = self.bus
        let id = planned.id
        return StepContext(
            stepID: id,
            kind: planned.kind.kind,
            workingDirectory: plan.options.workingDirectory,
            environment: plan.options.environment,
            isDryRun: plan.options.dryRun,
            isPreflight: preflight,
            now: plan.options.now,
            masker: masker,
            attempt: attempt,
            temporaryDirectory: scratch,
            endpoints: plan.options.endpoints,
            teardowns: teardowns,
            promisedPaths: promisedPaths,
            generatedPaths: generatedPaths,
            run: run,
            placeholderValues: Set(plan.options.placeholderSecrets.compactMap { plan.options.environment[$0] }),
            sink: { [self] event in
                // A preflight warning is held: a dry run shows it with the step's result, a real run's `run` gives it.
                if preflight, case .warning(let text) = event {
                    preflightWarnings.withLock { $0[id, default: []].append(text) }
                } else {
                    bus.emit(.step(id, event))
                }
            }
        )
    }

    func makeScratchDirectory() -> String {
        RunScratch.create()
    }

    func message(for error: any Error) -> String {
        switch error {
        case let error as OptionsDecoder.Failure:
            return "\(plan.pipeline.definition.file):\(error.location): \(error.path): \(error.message)"
        case let error as CustomStringConvertible:
            return error.description
        default:
            return "\(error)"
        }
    }
}
