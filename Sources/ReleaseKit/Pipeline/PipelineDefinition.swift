/// A pipeline file as written, checked for structure: format version 1.
public struct PipelineDefinition: Sendable {
    public var file: String
    public var version: Int
    public var name: String
    public var variables: [VariableDefinition]
    public var profiles: [ProfileDefinition]
    public var steps: [StepDefinition]
    /// The pipeline's `runs_on`: the runner of steps that name none.
    public var runsOn: Runner?

    public func step(_ id: String) -> StepDefinition? {
        steps.first { $0.id == id }
    }
}
