/// How the run went for the steps a ``RunReportingStep`` follows, filled in by the engine when that step starts
/// (after every one of them has finished) and read through ``StepContext/run``.
public struct RunStatus: Sendable, Equatable {
    /// How the followed steps ended, taken together.
    public enum Outcome: String, Sendable, Equatable {
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
    public struct Failure: Sendable, Equatable {
        public var step: String
        public var message: String

        public init(step: String, message: String) {
            self.step = step
            self.message = message
        }
    }

    /// The pipeline's name.
    public var pipeline: String
    public var profile: String?
    public var branch: String?
    public var sha: String?
    public var dryRun: Bool
    public var outcome: Outcome
    /// In plan order.
    public var failures: [Failure]
    /// The followed steps' ids in plan order: `needs` and what they need in turn, or every other step.
    public var followed: [String]
    /// Outputs of the followed steps that produced them (or promised them, in a dry run).
    public var outputs: [String: [String: OutputValue]]

    public init(
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
