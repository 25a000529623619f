import Foundation
import ReleaseSteps
import ReleaseSupport

extension RunEvent {
    /// The event with every secret masked in its texts: messages, planned effects (a dry run's command lines,
    /// diffs, requests), outputs and teardown descriptions. The one place every event passes on its way to a
    /// reporter (``EventBus``), so no output path, dry or real, depends on each step masking its own texts.
    ///
    /// A step's own lines (`.step`) are left alone: ``StepContext``, their only source, masks them as they are
    /// made (its callers, `gate.command` among them, need them masked too), and a build log is too long to mask
    /// twice.
    func masked(by masker: SecretMasker) -> RunEvent {
        guard !masker.isEmpty else { return self }
        switch self {
        case .runStarted(let pipeline, let file, let profile, let reason, let branch, let dryRun, let steps):
            return .runStarted(
                pipeline: masker.mask(pipeline), file: masker.mask(file), profile: profile.map(masker.mask),
                profileReason: masker.mask(reason), branch: branch.map(masker.mask), dryRun: dryRun, steps: steps)
        case .preflightFailed(let step, let message):
            return .preflightFailed(step: step, message: masker.mask(message))
        case .stepStarted, .step:
            return self
        case .stepRetrying(let step, let attempt, let delay, let message):
            return .stepRetrying(step: step, attempt: attempt, delay: delay, message: masker.mask(message))
        case .stepFinished(let result):
            return .stepFinished(Self.masked(result, masker))
        case .teardownFinished(let step, let description, let error):
            return .teardownFinished(step: step, description: masker.mask(description), error: error.map(masker.mask))
        case .runFinished(let result):
            var result = result
            result.steps = result.steps.map { Self.masked($0, masker) }
            result.teardownFailures = result.teardownFailures.map(masker.mask)
            result.branch = result.branch.map(masker.mask)
            return .runFinished(result)
        }
    }

    private static func masked(_ result: StepResult, _ masker: SecretMasker) -> StepResult {
        var result = result
        result.message = result.message.map(masker.mask)
        result.effects = result.effects.map { masked($0, masker) }
        result.outputs = result.outputs.mapValues { masked($0, masker) }
        return result
    }

    private static func masked(_ effect: PlannedEffect, _ masker: SecretMasker) -> PlannedEffect {
        switch effect {
        case .command(let argv, let directory):
            // Each word on its own: quoting for display changes how a secret with a quote or a space is spelled.
            return .command(argv: argv.map(masker.mask), directory: directory.map(masker.mask))
        case .writeFile(let path, let diff, let detail):
            return .writeFile(path: masker.mask(path), diff: diff.map(masker.mask), detail: detail.map(masker.mask))
        case .delete(let path):
            return .delete(path: masker.mask(path))
        case .move(let from, let to):
            return .move(from: masker.mask(from), to: masker.mask(to))
        case .request(let method, let url, let detail):
            return .request(method: method, url: masker.mask(url), detail: detail.map(masker.mask))
        case .note(let text):
            return .note(masker.mask(text))
        }
    }

    private static func masked(_ value: OutputValue, _ masker: SecretMasker) -> OutputValue {
        switch value {
        case .string(let text): return .string(masker.mask(text))
        case .path(let path): return .path(masker.mask(path))
        case .number, .bool: return value
        case .list(let items): return .list(items.map { masked($0, masker) })
        }
    }
}
