import ReleaseSteps
import ReleaseSupport
import Synchronization

/// The steps of one pipeline, each built from its options once per value of them and shared by every phase that
/// needs the step: validation builds the steps whose options hold no `${…}` (their options are final), and
/// preflight, a dry run's plan, the status commands and the run take those, or build a step once its options are
/// resolved and share that with the next phase that resolves them the same. So options are decoded and validated
/// (``StepOptions/validate()``) once per run, not once per phase.
///
/// Steps are values that keep nothing between calls (a step's state lives in its context and outputs), so one value
/// serves every phase.
package final class BuiltSteps: Sendable {
    private struct Built: Sendable {
        var options: JSONNode
        var step: any Step
    }

    private let steps = Mutex<[String: Built]>([:])
    private let decodings = Mutex(0)

    package init() {}

    /// Step `id` built from `options` (resolved: no `${…}` left): the value built before from the same options, or a
    /// new one, kept for the next phase.
    /// - Throws: what decoding or the step's `init` throws for the options, as ``StepKind/make(with:at:mode:)``.
    package func step(_ id: String, kind: StepKind, options: JSONNode, at path: JSONPath) throws -> any Step {
        if let built = steps.withLock({ $0[id] }), built.options == options { return built.step }
        decodings.withLock { $0 += 1 }
        guard let step = try kind.make(with: options, at: path, mode: .resolved).step else {
            throw InternalError("step '\(id)' (\(kind.kind)) was not built from resolved options")
        }
        steps.withLock { $0[id] = Built(options: options, step: step) }
        return step
    }

    /// Keeps `step`, built by validation from `options`, which hold no `${…}`.
    func keep(_ step: any Step, id: String, options: JSONNode) {
        steps.withLock { $0[id] = Built(options: options, step: step) }
    }

    /// How many times options were decoded into a step after validation: what sharing saves is counted by tests.
    package var decodingsAfterValidation: Int { decodings.withLock { $0 } }
}
