import Foundation
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import Synchronization

/// The scheduler: steps in parallel up to `--jobs` as what they need finishes, gates, `always` steps, `skip_if`, and
/// what an interrupt leaves.
extension Engine {
    func schedule(preflight: Preflight, scratch: String) async -> [String: StepResult] {
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
    func skipIfReason(_ planned: PlannedStep, results: [String: StepResult]) -> String? {
        guard let text = planned.definition.skipIf?.string else { return nil }
        var upstream: [String: StepResult] = [:]
        for producer in plan.pipeline.outputUses[planned.id] ?? [] { upstream[producer] = results[producer] }
        guard let value = try? interpolator(upstream: upstream).string(text), value.trimmingCharacters(in: .whitespaces).lowercased() == "true" else { return nil }
        return "skip_if: \(text) is true"
    }
}
