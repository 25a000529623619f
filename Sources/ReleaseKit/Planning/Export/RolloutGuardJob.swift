import ReleasePipeline
import ReleaseSteps

/// The scheduled job `release export` gives a pipeline's rollout guards (`appstore.rollout` with `action: guard`).
///
/// A guard watches a phased release for seven days after the release itself has finished, so it cannot be a job of
/// the push that made the release: it gets its own job, on Linux (it only talks to App Store Connect and Sentry),
/// started by the CI's scheduler (hourly by default; the step's `schedule`), with only the secrets its steps read.
/// It runs `release run --only GUARD`, which runs the guard and the steps it needs (keep those read-only, such as
/// `version.read`), and pushes the guard's state note with the job's own repository credentials. The release's jobs
/// do not run on a schedule, and the guard's job runs on nothing else.
package struct RolloutGuardJob: Sendable {
    /// The job's id in the exported file.
    package static let id = "rollout-guard"
    /// Hourly, at a minute when fewer scheduled jobs start than on the hour.
    package static let defaultSchedule = "17 * * * *"
    /// The runner: any Linux machine.
    package static let runner = "ubuntu-latest"

    /// The guard steps, in declaration order.
    package let steps: [String]
    /// The cron schedule (UTC): the first guard's `schedule`, else ``defaultSchedule``.
    package let schedule: String

    /// The pipeline's guard job, nil when it has no guard.
    package init?(_ pipeline: ValidatedPipeline) {
        let guards = pipeline.definition.steps.filter(Self.isGuard)
        guard let first = guards.first else { return nil }
        steps = guards.map(\.id)
        if case .string(let text)? = first.with["schedule"]?.value, AppStoreRolloutStep.isCron(text) {
            schedule = text
        } else {
            schedule = Self.defaultSchedule
        }
    }

    /// Whether `step` is a rollout guard.
    package static func isGuard(_ step: StepDefinition) -> Bool {
        guard step.uses == AppStoreRolloutStep.kind, case .string(let action)? = step.with["action"]?.value else { return false }
        return action == "guard"
    }
}
