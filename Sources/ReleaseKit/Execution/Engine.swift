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
    private let bus: EventBus
    private let masker: SecretMasker
    private let control = Mutex<Control>(Control())
    /// Succeeded steps of this run (real runs only); with `--resume`, also those of the previous one.
    private let journal: RunJournal?
    /// What steps changed on the machine, undone at the end of the run.
    private let teardowns = Teardowns()
    /// Warnings steps gave in preflight (`verify`, `plan`), by step. A real run drops them (`run` gives its own); a dry
    /// run shows them as the step's, so it shows what a real run warns about.
    private let preflightWarnings = Mutex<[String: [String]]>([:])
    /// What the pipeline's project generation writes (``ProjectGenerateStep/writes(in:)``), for steps that read the
    /// project before it runs.
    private let generatedPaths: [String]

    private struct Control {
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

    private var isInterrupted: Bool { control.withLock { $0.interrupted } }
    private var isAborted: Bool { control.withLock { $0.aborted } }

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

    // MARK: Preflight

    /// What preflight learned about each step.
    struct Preflight {
        /// Steps built from options resolved against promised outputs.
        var steps: [String: any Step] = [:]
        var effects: [String: [PlannedEffect]] = [:]
        /// Outputs each step promised.
        var promised: [String: StepOutputs] = [:]
        /// Outputs of steps taken from the journal of an earlier run (``PlannedStep/carried``).
        var known: [String: StepOutputs] = [:]
        /// Steps whose options use outputs not known before they run: verified just before running.
        var deferred: Set<String> = []
        var failures: [String: String] = [:]
        /// Steps that cannot run here (a rehearsal without a stand-in for their service), with why: skipped.
        var unavailable: [String: String] = [:]
        /// Steps whose preflight failed with the very problem an earlier step reported, with that step: said once.
        var repeated: [String: String] = [:]
        /// Steps with a problem of their own, in the order preflight found them.
        var failedInOrder: [String] = []
    }

    /// The result of a step when preflight found problems and nothing runs: its own problem; "blocked by" the first
    /// failed step it waits for; the problem of an earlier step said once; or, not started (a dry run: what it would do).
    private func notRun(_ planned: PlannedStep, preflight: Preflight) -> StepResult {
        let id = planned.id
        var result = StepResult(id: id, kind: planned.kind.kind, gate: planned.definition.gate, status: .cancelled)
        if let reason = preflight.unavailable[id] {
            result.status = .skipped
            result.message = reason
        } else if let message = preflight.failures[id] {
            result.status = .failed
            result.message = message
        } else if case .skip(let reason) = planned.decision {
            result.status = .skipped
            result.message = reason
        } else if !planned.runsAlways, let blocker = Self.failedUpstream(of: planned, in: plan.steps, preflight: preflight) {
            result.status = .blocked
            result.message = "blocked by '\(blocker)', whose preflight failed"
        } else if let earlier = preflight.repeated[id] {
            result.status = .failed
            result.message = "not started: the same problem as '\(earlier)' (reported above)"
        } else if plan.options.dryRun {
            result.status = .planned
            result.effects = preflight.effects[id] ?? []
            result.outputs = preflight.promised[id]?.values ?? [:]
            result.artifacts = preflight.promised[id]?.artifacts ?? []
            if preflight.deferred.contains(id) { result.message = "not checked: its options use outputs known only when the steps before it run" }
        } else {
            result.message = "not started: preflight failed"
        }
        return result
    }

    /// The first step whose preflight failed that `planned` waits for, directly or through the steps it needs.
    static func failedUpstream(of planned: PlannedStep, in steps: [PlannedStep], preflight: Preflight) -> String? {
        let needs = Dictionary(steps.map { ($0.id, $0.needs) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var pending = Array(planned.needs.reversed())
        while let id = pending.popLast() {
            guard seen.insert(id).inserted else { continue }
            if preflight.failures[id] != nil { return id }
            if let earlier = preflight.repeated[id] { return earlier }
            pending += (needs[id] ?? []).reversed()
        }
        return nil
    }

    /// Shows a dry run's step the warnings its preflight gave, once each, before its result.
    private func emitPreflightWarnings(of result: StepResult) {
        let warnings = preflightWarnings.withLock { $0.removeValue(forKey: result.id) } ?? []
        guard plan.options.dryRun, result.status == .planned else { return }
        var seen: Set<String> = []
        for warning in warnings where seen.insert(warning).inserted { bus.emit(.step(result.id, .warning(warning))) }
    }

    private func runPreflight(scratch: String) async -> Preflight {
        var preflight = Preflight()
        var promisedPaths: [String: String] = [:]
        for planned in plan.steps where planned.willRun {
            if isInterrupted { break }
            let id = planned.id
            if let producer = planned.reads.sorted().first(where: { preflight.unavailable[$0] != nil }) {
                preflight.unavailable[id] = "uses outputs of '\(producer)', which is skipped"
                continue
            }
            if planned.carried {
                // Done in an earlier run, perhaps on a machine of another kind: not verified here (its tools may be
                // missing), its recorded outputs are what the steps after it check against. Executing it checks it.
                if let entry = journal?.entry(id) { preflight.known[id] = StepOutputs(entry.outputs, artifacts: entry.artifacts) }
                continue
            }
            var interpolator = plan.interpolator
            for producer in plan.pipeline.outputUses[id] ?? [] {
                if let known = preflight.known[producer] {
                    interpolator.outputs[producer] = known.values
                } else if let promised = preflight.promised[producer] {
                    interpolator.outputs[producer] = promised.values
                    interpolator.promisedSteps.insert(producer)
                }
            }
            do {
                let prepared = try await prepare(planned, interpolator: interpolator, scratch: scratch, promisedPaths: promisedPaths)
                preflight.steps[id] = prepared.step
                preflight.effects[id] = prepared.plan.effects
                preflight.promised[id] = prepared.plan.outputs
                Self.promise(prepared.plan.outputs, of: id, in: prepared.context, to: &promisedPaths)
            } catch ResolutionError.pendingOutput {
                preflight.deferred.insert(id)
            } catch StepError.unavailable(let reason) {
                preflight.unavailable[id] = masker.mask(reason)
            } catch {
                // Every secret and variable the step lacks, not only the first: one run names them all.
                let text = masker.mask(message(for: ResolutionError.everyUnset(error, in: planned.definition.with, interpolator: interpolator)))
                // A dry run with a placeholder for a secret this machine lacks: the check it failed may be the
                // placeholder's doing (a key a remote service refuses), so show what the step would do, unchecked.
                if plan.options.dryRun, let secret = placeholderSecret(usedBy: planned),
                    let step = try? build(planned, try interpolator.options(planned.definition.with, of: planned.kind))
                {
                    let context = makeContext(planned, attempt: 1, scratch: scratch, promisedPaths: promisedPaths, preflight: true)
                    // Its plan may need the same remote answers; then all a dry run can say is that it was not asked.
                    let stepPlan =
                        (try? await step.plan(in: context)) ?? step.offlinePlan(in: context)
                        ?? StepPlan(effects: [.note("what it would do depends on answers a placeholder for '\(secret)' cannot get")])
                    preflight.steps[id] = step
                    preflight.effects[id] = stepPlan.effects
                    preflight.promised[id] = stepPlan.outputs
                    Self.promise(stepPlan.outputs, of: id, in: context, to: &promisedPaths)
                    preflightWarnings.withLock {
                        $0[id, default: []].append("not checked: it uses secret '\(secret)', not set here (a placeholder stands in); a real run checks it: \(text)")
                    }
                    continue
                }
                // A rehearsal's placeholder is no certificate or profile: say so, and what to set.
                let reason =
                    !plan.options.dryRun && placeholderSecret(usedBy: planned) != nil
                    ? text
                        + " ('\(placeholderSecret(usedBy: planned)!)' is not set, and the rehearsal's placeholder for it is not a real one: set it to rehearse this step)"
                    : text
                // One cause (a secret not set) fails every step using it: reported once, by the first.
                if let earlier = preflight.failedInOrder.first(where: { preflight.failures[$0] == reason }) {
                    preflight.repeated[id] = earlier
                } else {
                    fail(&preflight, id, reason)
                }
            }
        }
        return preflight
    }

    /// Records the paths a step's plan promises (artifacts, path outputs) as made by it, so steps after it that read
    /// them are checked against the promise rather than the disk.
    private static func promise(_ outputs: StepOutputs, of id: String, in context: StepContext, to promisedPaths: inout [String: String]) {
        for artifact in outputs.artifacts { promisedPaths[artifact.path] = id }
        for value in outputs.values.values {
            for path in paths(in: value) { promisedPaths[context.resolvePath(path)] = id }
        }
    }

    /// Resolves a step's options, builds the step, runs its `verify` and asks for its `plan`: what preflight does
    /// for every step, and a dry run again for a step whose options preflight could not resolve yet.
    /// - Throws: ``ResolutionError/pendingOutput(step:key:)`` when the options use an output not known yet; any
    ///   other error is the step's own failure.
    private func prepare(
        _ planned: PlannedStep, interpolator: Interpolator, scratch: String,
        promisedPaths: [String: String]
    ) async throws -> (step: any Step, plan: StepPlan, context: StepContext) {
        let step = try build(planned, try interpolator.options(planned.definition.with, of: planned.kind))
        let context = makeContext(planned, attempt: 1, scratch: scratch, promisedPaths: promisedPaths, preflight: true)
        let timeout = planned.definition.timeout
        try await withTimeout(timeout, "verify") { try await step.verify(in: context) }
        return (step, try await withTimeout(timeout, "plan") { try await step.plan(in: context) }, context)
    }

    /// The first placeholder secret (``RunOptions/placeholderSecrets``) the step's options name.
    private func placeholderSecret(usedBy planned: PlannedStep) -> String? {
        let placeholders = plan.options.placeholderSecrets
        guard !placeholders.isEmpty else { return nil }
        var found: String?
        forEachString(in: planned.definition.with, path: .root) { text, _, _ in
            guard found == nil, Template.mayContainReferences(text), let template = try? Template(parsing: text) else { return }
            for case .secret(let name) in template.references where placeholders.contains(name) { found = name; return }
        }
        return found
    }

    private func fail(_ preflight: inout Preflight, _ id: String, _ message: String) {
        let masked = masker.mask(message)
        preflight.failures[id] = masked
        preflight.failedInOrder.append(id)
        bus.emit(.preflightFailed(step: id, message: masked))
    }

    private static func paths(in value: OutputValue) -> [String] {
        switch value {
        case .path(let path): return [path]
        case .list(let items): return items.flatMap(paths)
        case .string, .number, .bool: return []
        }
    }

    /// The files and folders the `project.generate` steps that will run write, from their options as resolved now (one
    /// that reads another step's outputs is left out: what it writes is not known yet).
    private static func generatedPaths(_ plan: Plan) -> [String] {
        var paths: [String] = []
        for planned in plan.steps where planned.willRun && planned.kind.kind == ProjectGenerateStep.kind {
            guard let resolved = try? plan.interpolator.options(planned.definition.with, of: planned.kind),
                let step = try? planned.kind.make(with: resolved, at: planned.definition.path.appending("with"), mode: .resolved).step as? ProjectGenerateStep
            else { continue }
            let context = StepContext(
                stepID: planned.id, kind: planned.kind.kind, workingDirectory: plan.options.workingDirectory, environment: plan.options.environment)
            paths += step.writes(in: context)
        }
        return paths
    }

    private func build(_ planned: PlannedStep, _ resolved: JSONNode) throws -> any Step {
        let result = try planned.kind.make(with: resolved, at: planned.definition.path.appending("with"), mode: .resolved)
        guard let step = result.step else { throw InternalError("step '\(planned.id)' was not built") }
        return step
    }

    // MARK: Scheduling

    private func schedule(preflight: Preflight, scratch: String) async -> [String: StepResult] {
        let steps = plan.steps
        let index = Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($1.id, $0) })
        var results: [String: StepResult] = [:]
        var runningCount = 0
        /// The first failure that stops new work (without --keep-going).
        var halt: String?
        let dryRun = plan.options.dryRun

        // Ready steps start in plan order as their needs finish; nothing is rescanned (10,000 steps stay fast).
        var ready = ReadyQueue(StepGraph(ids: steps.map(\.id), dependencies: Dictionary(uniqueKeysWithValues: steps.map { ($0.id, $0.needs) })))

        func finish(_ result: StepResult) {
            results[result.id] = result
            bus.emit(.stepFinished(result))
            if let position = index[result.id] { ready.finish(position) }
        }

        /// Decides ready steps in plan order: finishes those that cannot run, returns those to launch now.
        func decide() -> [PlannedStep] {
            var launch: [PlannedStep] = []
            while let position = ready.firstReady {
                let planned = steps[position]
                let definition = planned.definition
                let id = planned.id
                let kind = planned.kind.kind
                func conclude(_ status: StepStatus, _ message: String) {
                    _ = ready.popReady()
                    finish(StepResult(id: id, kind: kind, gate: definition.gate, status: status, message: message))
                }
                if case .skip(let reason) = planned.decision { conclude(.skipped, reason); continue }
                if let reason = preflight.unavailable[id] { conclude(.skipped, reason); continue }
                if let producer = planned.reads.sorted().first(where: { results[$0]?.status == .skipped }) {
                    conclude(.skipped, "uses outputs of '\(producer)', which is skipped")
                    continue
                }
                if let reason = skipIfReason(planned, results: results) { conclude(.skipped, reason); continue }
                if let failure = preflight.failures[id] { conclude(.failed, failure); continue }
                if isAborted { conclude(.cancelled, "not started: interrupted twice"); continue }
                if !planned.runsAlways {
                    if isInterrupted { conclude(.cancelled, "not started: interrupted"); continue }
                    let stopped = planned.needs.compactMap { results[$0] }.filter { !$0.status.letsDependentsRun }
                    // A step after one that waits waits too (not blocked: nothing failed), unless another it needs failed.
                    if let waiting = stopped.first, stopped.allSatisfy({ $0.status == .waiting }) {
                        conclude(.waiting, "waiting for '\(waiting.id)'")
                        continue
                    }
                    if let blocker = stopped.first(where: { $0.status != .waiting }) {
                        let verb =
                            blocker.status == .rejected
                            ? "rejected the release"
                            : blocker.status == .blocked
                                ? "is blocked"
                                : blocker.status == .cancelled ? "was cancelled" : "failed"
                        conclude(.blocked, "'\(blocker.id)' \(verb)")
                        continue
                    }
                    if let halt, !definition.gate, !plan.options.keepGoing { conclude(.cancelled, "not started: '\(halt)' failed"); continue }
                }
                guard runningCount + launch.count < plan.options.jobs else { break }
                _ = ready.popReady()
                launch.append(planned)
            }
            return launch
        }

        await withTaskGroup(of: StepResult.self) { group in
            func start(_ planned: PlannedStep) {
                runningCount += 1
                var upstream: [String: StepResult] = [:]
                for producer in planned.needs { upstream[producer] = results[producer] }
                for producer in plan.pipeline.outputUses[planned.id] ?? [] { upstream[producer] = results[producer] }
                let reallyRan = planned.needs.allSatisfy { upstream[$0]?.status == .succeeded }
                let describeOnly = dryRun && !(preflight.steps[planned.id]?.isReadOnly == true && reallyRan)
                let status = planned.kind.reportsOnRun ? runStatus(following: planned, results: results) : nil
                let task = Task { [self, upstream] in
                    await execute(planned, preflight: preflight, upstream: upstream, scratch: scratch, describeOnly: describeOnly, run: status)
                }
                let interruptedAlready = control.withLock { state -> Bool in
                    state.running[planned.id] = (task, planned.runsAlways)
                    return state.interrupted
                }
                if interruptedAlready && (!planned.runsAlways || isAborted) { task.cancel() }
                group.addTask { await task.value }
            }
            for planned in decide() { start(planned) }
            while let result = await group.next() {
                runningCount -= 1
                _ = control.withLock { $0.running.removeValue(forKey: result.id) }
                if result.status == .failed, halt == nil { halt = result.id }
                finish(result)
                for planned in decide() { start(planned) }
            }
        }
        // Anything left could not be decided (cannot happen with an acyclic graph); say so rather than hide it.
        for planned in steps where results[planned.id] == nil {
            finish(StepResult(id: planned.id, kind: planned.kind.kind, gate: planned.definition.gate, status: .cancelled, message: "not started"))
        }
        return results
    }

    /// Why `planned` is skipped by its `skip_if`: the step outputs it names resolve to `true`. Outputs not known (a
    /// producer that failed or was skipped, or a dry run's promise that depends on the run) skip nothing.
    private func skipIfReason(_ planned: PlannedStep, results: [String: StepResult]) -> String? {
        guard let text = planned.definition.skipIf?.string else { return nil }
        var upstream: [String: StepResult] = [:]
        for producer in plan.pipeline.outputUses[planned.id] ?? [] { upstream[producer] = results[producer] }
        guard let value = try? interpolator(upstream: upstream).string(text), value.trimmingCharacters(in: .whitespaces).lowercased() == "true" else { return nil }
        return "skip_if: \(text) is true"
    }

    // MARK: One step

    private func execute(
        _ planned: PlannedStep, preflight: Preflight, upstream: [String: StepResult], scratch: String,
        describeOnly: Bool, run status: RunStatus?
    ) async -> StepResult {
        let started = Date()
        let interpolator = interpolator(upstream: upstream)
        if describeOnly {
            return await describe(planned, preflight: preflight, interpolator: interpolator, scratch: scratch)
        }
        var result = StepResult(id: planned.id, kind: planned.kind.kind, gate: planned.definition.gate, status: .failed)
        switch await start(planned, interpolator: interpolator) {
        case .resumed(let entry):
            result.status = .resumed
            result.outputs = entry.outputs
            result.artifacts = entry.artifacts
        case .failed(let message):
            result.message = message
            result.duration = Date().timeIntervalSince(started)
        case .ready(let step, let fingerprint):
            await runAttempts(step, planned, preflight: preflight, fingerprint: fingerprint, scratch: scratch, run: status, into: &result)
            result.duration = Date().timeIntervalSince(started)
        }
        return result
    }

    /// The plan's interpolator with what upstream steps really produced (or, in a dry run, promised), to resolve a
    /// step's options against.
    private func interpolator(upstream: [String: StepResult]) -> Interpolator {
        var interpolator = plan.interpolator
        var outputs: [String: [String: OutputValue]] = [:]
        var promisedSteps: Set<String> = []
        for (producer, produced) in upstream {
            outputs[producer] = produced.outputs
            if produced.status == .planned { promisedSteps.insert(producer) }
        }
        interpolator.outputs = outputs
        interpolator.promisedSteps = promisedSteps
        return interpolator
    }

    /// A dry run's result for `planned`: what preflight found it would do, or, when preflight could not resolve its
    /// options, what it says now that read-only steps upstream may have run.
    private func describe(_ planned: PlannedStep, preflight: Preflight, interpolator: Interpolator, scratch: String) async -> StepResult {
        let id = planned.id
        var result = StepResult(id: id, kind: planned.kind.kind, gate: planned.definition.gate, status: .planned)
        result.effects = preflight.effects[id] ?? []
        result.outputs = preflight.promised[id]?.values ?? [:]
        result.artifacts = preflight.promised[id]?.artifacts ?? []
        if preflight.deferred.contains(id) {
            do {
                let prepared = try await prepare(planned, interpolator: interpolator, scratch: scratch, promisedPaths: [:])
                result.effects = prepared.plan.effects
                result.outputs = prepared.plan.outputs.values
                result.artifacts = prepared.plan.outputs.artifacts
            } catch ResolutionError.pendingOutput(let producer, let key) {
                result.message = "not checked: it uses output '\(key)' of '\(producer)', known only when '\(producer)' really runs"
            } catch {
                result.status = .failed
                result.message = masker.mask(message(for: error))
            }
        }
        emitPreflightWarnings(of: result)
        return result
    }

    /// How a step starts: taken from an earlier run, or built from its resolved options, or failed doing so.
    private enum Start {
        case resumed(RunJournal.Entry)
        case ready(any Step, fingerprint: String)
        case failed(String)
    }

    /// Resolves `planned`'s options and builds the step, unless the journal of an earlier run already has it.
    private func start(_ planned: PlannedStep, interpolator: Interpolator) async -> Start {
        let definition = planned.definition
        do {
            var names = interpolator
            names.secretsAsNames = true
            let fingerprint = RunJournal.fingerprint(
                kind: planned.kind.kind, resolved: try names.options(definition.with, of: planned.kind),
                workspace: plan.options.workingDirectory)
            // A step taken from an earlier run is checked by its fingerprint, which reads a secret's name and never its
            // value: a CI job gets only the secrets of the steps it runs itself.
            if planned.carried {
                return .resumed(try await carriedEntry(planned, fingerprint: fingerprint))
            }
            // A gate is never taken from the journal: what it checks may have changed, and a journal is only a file.
            if plan.options.resume, !definition.always, !definition.gate, let entry = journal?.entry(planned.id), entry.fingerprint == fingerprint,
                await Self.unchanged(entry.artifacts)
            {
                return .resumed(entry)
            }
            let resolved = try interpolator.options(definition.with, of: planned.kind)
            return .ready(try build(planned, resolved), fingerprint: fingerprint)
        } catch {
            return .failed(masker.mask(message(for: error)))
        }
    }

    /// Runs `step` until an attempt succeeds or no retry is left, recording the outcome in `result`.
    private func runAttempts(
        _ step: any Step, _ planned: PlannedStep, preflight: Preflight, fingerprint: String, scratch: String,
        run status: RunStatus?, into result: inout StepResult
    ) async {
        let definition = planned.definition
        let id = planned.id
        var attempt = 1
        while true {
            bus.emit(.stepStarted(step: id, kind: planned.kind.kind, attempt: attempt))
            let context = makeContext(planned, attempt: attempt, scratch: scratch, promisedPaths: [:], run: status)
            result.attempts = attempt
            do {
                if preflight.deferred.contains(id) || preflight.steps[id] == nil {
                    try await withTimeout(definition.timeout, "verify") { try await step.verify(in: context) }
                }
                let produced = try await withTimeout(definition.timeout) { try await step.run(in: context) }
                result.status = .succeeded
                result.outputs = produced.values
                result.artifacts = produced.artifacts
                result.message = nil
                let leaksSecret = produced.values.values.contains { masker.mask($0.text) != $0.text }
                if !leaksSecret {
                    journal?.record(id, RunJournal.Entry(fingerprint: fingerprint, outputs: produced.values, artifacts: produced.artifacts))
                }
                return
            } catch {
                guard await shouldRetry(after: error, attempt: attempt, of: definition, id: id, into: &result) else { return }
                attempt += 1
            }
        }
    }

    /// Records a failed attempt in `result`; true when the step gets another one, after its retry delay.
    private func shouldRetry(
        after error: any Error, attempt: Int, of definition: StepDefinition, id: String,
        into result: inout StepResult
    ) async -> Bool {
        if error is CancellationError || Task.isCancelled {
            result.status = .cancelled
            result.message = "interrupted"
            return false
        }
        if case StepError.unavailable(let reason) = error {
            result.status = .skipped
            result.message = masker.mask(reason)
            return false
        }
        if case StepError.waiting(let what) = error {
            // Not a failure, and never retried: the wait is over for this run; the next run continues it.
            result.status = .waiting
            result.message = masker.mask(what)
            journal?.recordWaiting(id, result.message ?? "")
            return false
        }
        result.message = masker.mask(message(for: error))
        if case StepError.exitStatus(let status, _) = error { result.exitStatus = status }
        let rejected: Bool
        if case StepError.rejected = error { rejected = true } else { rejected = false }
        if attempt < definition.retries + 1 && !rejected && !isInterrupted {
            let delay = Self.retryDelay(definition.retryDelay, after: attempt)
            bus.emit(.stepRetrying(step: id, attempt: attempt, delay: delay, message: result.message ?? ""))
            do {
                try await Task.sleep(for: .seconds(delay))
            } catch {
                result.status = .cancelled
                result.message = "interrupted"
                return false
            }
            return true
        }
        result.status = definition.continueOnError ? .ignoredFailure : definition.gate ? .rejected : .failed
        return false
    }

    /// How the steps `planned` follows went, for a step that reports on the run: all of them have finished.
    private func runStatus(following planned: PlannedStep, results: [String: StepResult]) -> RunStatus {
        var followed: Set<String> = []
        var pending = planned.needs
        let needs = Dictionary(uniqueKeysWithValues: plan.steps.map { ($0.id, $0.needs) })
        while let id = pending.popLast() {
            guard followed.insert(id).inserted else { continue }
            pending += needs[id] ?? []
        }
        let ordered = plan.steps.map(\.id).filter(followed.contains)
        let finished = ordered.compactMap { results[$0] }
        let failures = finished.filter { $0.status == .failed || $0.status == .rejected }
            .map { RunStatus.Failure(step: $0.id, message: $0.message ?? $0.status.label) }
        let outcome: RunStatus.Outcome =
            !failures.isEmpty
            ? .failure
            : (isInterrupted || finished.contains { $0.status == .cancelled })
                ? .cancelled : finished.contains { $0.status == .waiting } ? .waiting : .success
        var outputs: [String: [String: OutputValue]] = [:]
        for result in finished where !result.outputs.isEmpty { outputs[result.id] = result.outputs }
        return RunStatus(
            pipeline: plan.pipeline.definition.name, profile: plan.profile, branch: plan.git.branch, sha: plan.git.sha,
            dryRun: plan.options.dryRun, outcome: outcome, failures: failures, followed: ordered, outputs: outputs)
    }

    /// Runs every registered teardown, newest first, each reported as it ends; returns the failures' messages.
    /// They run whatever happened before (failure, Ctrl-C): what a step set up on the machine is taken down.
    private func runTeardowns() async -> [String] {
        var failures: [String] = []
        for entry in teardowns.takeAll() {
            if isAborted {
                let text = "not undone: interrupted twice"
                failures.append("\(entry.step): \(entry.description): \(text)")
                bus.emit(.teardownFinished(step: entry.step, description: entry.description, error: text))
                continue
            }
            do {
                try await entry.action()
                bus.emit(.teardownFinished(step: entry.step, description: entry.description, error: nil))
            } catch {
                let text = masker.mask(message(for: error))
                failures.append("\(entry.step): \(entry.description): \(text)")
                bus.emit(.teardownFinished(step: entry.step, description: entry.description, error: text))
            }
        }
        return failures
    }

    /// The journal entry of a step this run takes from an earlier one (perhaps another machine's), checked: the same
    /// inputs, and every artifact here with the SHA-256 the journal records. A step that cannot be taken fails: running
    /// it here instead would build on the wrong machine, or quietly make a different release.
    private func carriedEntry(_ planned: PlannedStep, fingerprint: String) async throws -> RunJournal.Entry {
        let id = planned.id
        guard let entry = journal?.entry(id) else {
            throw StepError.failed("step '\(id)' is not in the journal of the earlier run it is taken from")
        }
        guard entry.fingerprint == fingerprint else {
            throw StepError.failed("step '\(id)' ran earlier (perhaps on another machine) with other inputs: its options resolve differently here; run it again with --only \(id)")
        }
        for artifact in entry.artifacts {
            guard FileManager.default.fileExists(atPath: artifact.path) else {
                throw StepError.failed(
                    "'\(WorkspacePaths(plan.options.workingDirectory).relative(artifact.path))', made by step '\(id)' in an earlier run (perhaps on another machine), is missing here: bring it with the journal"
                )
            }
            let digest = try await FileDigest.sha256(ofFile: artifact.path).hex
            guard digest == artifact.sha256 else {
                throw StepError.failed(
                    "'\(WorkspacePaths(plan.options.workingDirectory).relative(artifact.path))', made by step '\(id)' in an earlier run (perhaps on another machine), changed since: SHA-256 \(artifact.sha256) in the journal, \(digest) here"
                )
            }
        }
        return entry
    }

    /// Whether every artifact a journal entry lists is still there with the same SHA-256 (hashed off the pool).
    private static func unchanged(_ artifacts: [Artifact]) async -> Bool {
        for artifact in artifacts {
            guard let digest = try? await FileDigest.sha256(ofFile: artifact.path), digest.hex == artifact.sha256 else { return false }
        }
        return true
    }

    /// The wait in seconds before the attempt after `attempt`: `base` doubled each time, at most 300 seconds.
    static func retryDelay(_ base: Double, after attempt: Int) -> Double {
        let (seconds, attoseconds) = ExponentialBackoff(base: .seconds(base), cap: .seconds(300)).delay(afterAttempt: attempt).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Runs `work` (a step's `run`, or its `verify` or `plan`: a plugin may hang in any of them), cancelled after
    /// the step's `timeout`, which stops the processes it started. `phase` names what timed out when it is not `run`.
    private func withTimeout<T: Sendable>(
        _ timeout: Double?, _ phase: String? = nil,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let timeout else { return try await work() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                let what = phase.map { "'\($0)' " } ?? ""
                throw StepError.failed("\(what)timed out after \(DurationFormat.string(seconds: timeout)); the step's processes were stopped")
            }
            return value
        }
    }

    // MARK: Contexts

    private func makeContext(
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

    private func makeScratchDirectory() -> String {
        RunScratch.create()
    }

    private func message(for error: any Error) -> String {
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
