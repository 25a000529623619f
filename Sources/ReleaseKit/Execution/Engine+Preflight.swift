import Foundation
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// Preflight: every step's `verify`, then its `plan`, against the outputs the steps before it promise; what a step
/// that fails it (or follows one that did) reports instead of running.
extension Engine {
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
    func notRun(_ planned: PlannedStep, preflight: Preflight) -> StepResult {
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
    func emitPreflightWarnings(of result: StepResult) {
        let warnings = preflightWarnings.withLock { $0.removeValue(forKey: result.id) } ?? []
        guard plan.options.dryRun, result.status == .planned else { return }
        var seen: Set<String> = []
        for warning in warnings where seen.insert(warning).inserted { bus.emit(.step(result.id, .warning(warning))) }
    }

    func runPreflight(scratch: String) async -> Preflight {
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
    static func promise(_ outputs: StepOutputs, of id: String, in context: StepContext, to promisedPaths: inout [String: String]) {
        for artifact in outputs.artifacts { promisedPaths[artifact.path] = id }
        for value in outputs.values.values {
            for path in paths(in: value) { promisedPaths[context.resolvePath(path)] = id }
        }
    }

    /// Resolves a step's options, builds the step, runs its `verify` and asks for its `plan`: what preflight does
    /// for every step, and a dry run again for a step whose options preflight could not resolve yet.
    /// - Throws: ``ResolutionError/pendingOutput(step:key:)`` when the options use an output not known yet; any
    ///   other error is the step's own failure.
    func prepare(
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
    func placeholderSecret(usedBy planned: PlannedStep) -> String? {
        let placeholders = plan.options.placeholderSecrets
        guard !placeholders.isEmpty else { return nil }
        var found: String?
        forEachString(in: planned.definition.with, path: .root) { text, _, _ in
            guard found == nil, Template.mayContainReferences(text), let template = try? Template(parsing: text) else { return }
            for case .secret(let name) in template.references where placeholders.contains(name) { found = name; return }
        }
        return found
    }

    func fail(_ preflight: inout Preflight, _ id: String, _ message: String) {
        let masked = masker.mask(message)
        preflight.failures[id] = masked
        preflight.failedInOrder.append(id)
        bus.emit(.preflightFailed(step: id, message: masked))
    }

    static func paths(in value: OutputValue) -> [String] {
        switch value {
        case .path(let path): return [path]
        case .list(let items): return items.flatMap(paths)
        case .string, .number, .bool: return []
        }
    }

    /// The files and folders the `project.generate` steps that will run write, from their options as resolved now (one
    /// that reads another step's outputs is left out: what it writes is not known yet).
    static func generatedPaths(_ plan: Plan) -> [String] {
        var paths: [String] = []
        for planned in plan.steps where planned.willRun && planned.kind.kind == ProjectGenerateStep.kind {
            guard let resolved = try? plan.interpolator.options(planned.definition.with, of: planned.kind),
                let step = try? plan.pipeline.builtSteps.step(planned.id, kind: planned.kind, options: resolved, at: planned.definition.path.appending("with"))
                    as? ProjectGenerateStep
            else { continue }
            let context = StepContext(
                stepID: planned.id, kind: planned.kind.kind, workingDirectory: plan.options.workingDirectory, environment: plan.options.environment)
            paths += step.writes(in: context)
        }
        return paths
    }

    /// The step built from its resolved options, once: preflight's value serves the run when the options resolve the
    /// same (``BuiltSteps``).
    func build(_ planned: PlannedStep, _ resolved: JSONNode) throws -> any Step {
        try plan.pipeline.builtSteps.step(planned.id, kind: planned.kind, options: resolved, at: planned.definition.path.appending("with"))
    }
}
