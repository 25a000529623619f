import ReleaseSteps

/// A pipeline that passed every static check, with its full dependency graph.
package struct ValidatedPipeline: Sendable {
    package var definition: PipelineDefinition
    /// Explicit `needs` plus the edges `${steps.X.outputs.Y}` references add.
    package var graph: StepGraph
    /// For each step, the steps whose outputs it uses (directly or through variables).
    package var outputUses: [String: Set<String>]
    /// For each step, the steps it needs only because it uses their outputs.
    package var impliedNeeds: [String: [String]]
    /// For each step, the steps it needs only because it reads a path they create, with that path (DESIGN §4).
    package var pathNeeds: [String: [String: String]] = [:]
    /// The step kinds the pipeline was checked against.
    package var registry: StepRegistry
    /// The steps built from their options, shared by validation, preflight and the run.
    package var builtSteps = BuiltSteps()
}
