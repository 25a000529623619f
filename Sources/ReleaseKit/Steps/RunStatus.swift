/// How the run went for the steps a ``RunReportingStep`` follows, filled in by the engine when that step starts
/// (after every one of them has finished) and read through ``StepContext/run``.
package struct RunStatus: Sendable, Equatable {
    /// How the followed steps ended, taken together.
    package enum Outcome: String, Sendable, Equatable {
        /// Every one succeeded, was skipped, or failed with `continue_on_error`.
        case success
        /// A step failed or a gate rejected the release.
        case failure
        /// The run was interrupted (Ctrl-C), and nothing failed.
        case cancelled
        /// Nothing failed, and a step waits on something outside (its `wait` budget ran out): the release is not
        /// done; running the pipeline again continues it.
        case waiting
    }

    /// A followed step that failed or rejected the release, with its (masked) message.
    package struct Failure: Sendable, Equatable {
        package var step: String
        package var message: String

        package init(step: String, message: String) {
            self.step = step
            self.message = message
        }
    }

    /// The pipeline's name.
    package var pipeline: String
    package var profile: String?
    package var branch: String?
    package var sha: String?
    package var dryRun: Bool
    package var outcome: Outcome
    /// In plan order.
    package var failures: [Failure]
    /// The followed steps' ids in plan order: `needs` and what they need in turn, or every other step.
    package var followed: [String]
    /// Outputs of the followed steps that produced them (or promised them, in a dry run).
    package var outputs: [String: [String: OutputValue]]

    package init(
        pipeline: String, profile: String? = nil, branch: String? = nil, sha: String? = nil, dryRun: Bool = false,
        outcome: Outcome, failures: [Failure] = [], followed: [String] = [], outputs: [String: [String: OutputValue]] = [:]
    ) {
        self.pipeline = pipeline
        self.profile = profile
        self.branch = branch
        self.sha = sha
        self.dryRun = dryRun
        self.outcome = outcome
        self.failures = failures
        self.followed = followed
        self.outputs = outputs
    }
}
