/// A pipeline that passed every static check, with its full dependency graph.
public struct ValidatedPipeline: Sendable {
    public var definition: PipelineDefinition
    /// Explicit `needs` plus the edges `${steps.X.outputs.Y}` references add.
    public var graph: StepGraph
    /// For each step, the steps whose outputs it uses (directly or through variables).
    public var outputUses: [String: Set<String>]
    /// For each step, the steps it needs only because it uses their outputs.
    public var impliedNeeds: [String: [String]]
    /// For each step, the steps it needs only because it reads a path they create, with that path (DESIGN §4).
    public var pathNeeds: [String: [String: String]] = [:]
    /// The step kinds the pipeline was checked against.
    public var registry: StepRegistry
}
