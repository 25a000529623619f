import ReleasePipeline
import ReleaseSteps

/// A step as this run will treat it.
package struct PlannedStep: Sendable {
    /// Whether the step runs.
    package enum Decision: Sendable, Equatable {
        case run
        /// Skipped before the run starts; the reason says why (a false `when`, `--only`).
        case skip(String)
    }

    package var definition: StepDefinition
    package var kind: StepKind
    /// Every step this one waits for: `needs`, output references, and for an `always` step with no `needs`,
    /// every other step (it runs last, like `finally`).
    package var needs: [String]
    package var decision: Decision
    /// A step `--only` does not name but what it names needs, which succeeded in the journal being resumed (perhaps
    /// on another machine): its outputs and artifacts are taken from the journal, and if they cannot be (its inputs
    /// or an artifact changed), the step fails rather than running here.
    package var carried = false
    /// The steps whose outputs it reads in this run (``Planner/producers(readBy:variables:)``): among ``needs``, the
    /// ones that make it skipped when they are.
    package var reads: Set<String> = []
    /// The system the step runs on when it is skipped only because this machine is another (`{"os": "macos"}` on
    /// Linux, or a step reading one).
    package var otherSystem: String? = nil

    package var id: String { definition.id }
    /// Whether it runs after what it follows whatever their outcome: `always: true`, or a kind that reports on the
    /// run (``RunReportingStep``).
    package var runsAlways: Bool { definition.always || kind.reportsOnRun }
    package var willRun: Bool { decision == .run }
}
