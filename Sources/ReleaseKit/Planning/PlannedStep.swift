/// A step as this run will treat it.
public struct PlannedStep: Sendable {
    /// Whether the step runs.
    public enum Decision: Sendable, Equatable {
        case run
        /// Skipped before the run starts; the reason says why (a false `when`, `--only`).
        case skip(String)
    }

    public var definition: StepDefinition
    public var kind: StepKind
    /// Every step this one waits for: `needs`, output references, and for an `always` step with no `needs`,
    /// every other step (it runs last, like `finally`).
    public var needs: [String]
    public var decision: Decision
    /// A step `--only` does not name but what it names needs, which succeeded in the journal being resumed (perhaps
    /// on another machine): its outputs and artifacts are taken from the journal, and if they cannot be (its inputs
    /// or an artifact changed), the step fails rather than running here.
    public var carried = false
    /// The steps whose outputs it reads in this run (``Planner/producers(readBy:variables:)``): among ``needs``, the
    /// ones that make it skipped when they are.
    public var reads: Set<String> = []
    /// The system the step runs on when it is skipped only because this machine is another (`{"os": "macos"}` on
    /// Linux, or a step reading one).
    public var otherSystem: String? = nil

    public var id: String { definition.id }
    /// Whether it runs after what it follows whatever their outcome: `always: true`, or a kind that reports on the
    /// run (``RunReportingStep``).
    public var runsAlways: Bool { definition.always || kind.reportsOnRun }
    public var willRun: Bool { decision == .run }
}
