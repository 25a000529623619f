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
    /// The pipeline's `tool` block, checked to be an object: where exported CI jobs get `release` (read by the export).
    public var tool: JSONNode?
    /// The pipeline's `attest`: exported workflows attest the provenance of what the release publishes.
    public var attest = false

    public func step(_ id: String) -> StepDefinition? {
        steps.first { $0.id == id }
    }
}
