import Foundation
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// One step: taken from the journal, described (dry run) or run, with its retries and timeout; the run status a
/// reporting step reads, the teardowns, and the journal entries carried from an earlier run.
extension Engine {
    func execute(
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
    func interpolator(upstream: [String: StepResult]) -> Interpolator {
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
    func describe(_ planned: PlannedStep, preflight: Preflight, interpolator: Interpolator, scratch: String) async -> StepResult {
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
    enum Start {
        case resumed(RunJournal.Entry)
        case ready(any Step, fingerprint: String)
        case failed(String)
    }

    /// Resolves `planned`'s options and builds the step, unless the journal of an earlier run already has it.
    func start(_ planned: PlannedStep, interpolator: Interpolator) async -> Start {
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
    func runAttempts(
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
    func shouldRetry(
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
    func runStatus(following planned: PlannedStep, results: [String: StepResult]) -> RunStatus {
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
    func runTeardowns() async -> [String] {
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
    func carriedEntry(_ planned: PlannedStep, fingerprint: String) async throws -> RunJournal.Entry {
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
    static func unchanged(_ artifacts: [Artifact]) async -> Bool {
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
    func withTimeout<T: Sendable>(
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
}
