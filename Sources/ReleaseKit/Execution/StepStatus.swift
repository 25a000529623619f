/// How a step ended (or why it did not run).
package enum StepStatus: Sendable, Equatable, Codable {
    case succeeded
    /// Failed; `continue_on_error` steps record `ignored` instead and do not fail the run.
    case failed
    case ignoredFailure
    /// A gate rejected the release.
    case rejected
    /// Not run: a false `when`, `--only`, or outputs of a skipped step.
    case skipped
    /// Not run because a step it needs failed or was rejected.
    case blocked
    /// Not run, or stopped, because the run was interrupted or stopped after a failure.
    case cancelled
    /// Dry run: would run (described, not done).
    case planned
    /// `--resume`: succeeded in the previous run with the same inputs; not run again.
    case resumed
    /// Not done yet, and not failed: the step's `wait` budget ran out while something outside (Apple's processing,
    /// App Review) was still under way, or a step it needs is waiting. Running the same pipeline on the same commit
    /// again continues it.
    case waiting

    /// The word shown in summaries.
    package var label: String {
        switch self {
        case .succeeded: return "ok"
        case .failed: return "failed"
        case .ignoredFailure: return "failed (ignored)"
        case .rejected: return "rejected"
        case .skipped: return "skipped"
        case .blocked: return "blocked"
        case .cancelled: return "cancelled"
        case .planned: return "planned"
        case .resumed: return "resumed"
        case .waiting: return "waiting"
        }
    }

    /// Whether dependents may run after it.
    var letsDependentsRun: Bool {
        switch self {
        case .succeeded, .ignoredFailure, .skipped, .resumed, .planned: return true
        case .failed, .rejected, .blocked, .cancelled, .waiting: return false
        }
    }
}
