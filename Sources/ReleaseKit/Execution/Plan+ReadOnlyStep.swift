import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport

extension Plan {
    /// `planned` built as a step of type `S` from its resolved options, with a context for reading only (a dry run's
    /// preflight, so nothing changes): what `release signing status` and `release rollout status` assess.
    /// - Throws: the options' errors, as the run would give them.
    func readOnlyStep<S>(_ planned: PlannedStep, as type: S.Type) throws -> (step: S, context: StepContext) {
        let context = StepContext(
            stepID: planned.id, kind: planned.kind.kind, workingDirectory: options.workingDirectory, environment: options.environment,
            isDryRun: true, isPreflight: true, now: options.now, masker: interpolator.masker, endpoints: options.endpoints)
        let resolved = try interpolator.options(planned.definition.with, of: planned.kind)
        let built = try pipeline.builtSteps.step(planned.id, kind: planned.kind, options: resolved, at: planned.definition.path.appending("with"))
        guard let step = built as? S else { throw InternalError("step '\(planned.id)' was not built as \(planned.kind.kind)") }
        return (step, context)
    }
}
