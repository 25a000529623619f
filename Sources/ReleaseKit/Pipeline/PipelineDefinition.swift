/// A pipeline file as written, checked for structure: format version 1.
package struct PipelineDefinition: Sendable {
    package var file: String
    package var version: Int
    package var name: String
    package var variables: [VariableDefinition]
    package var profiles: [ProfileDefinition]
    package var steps: [StepDefinition]
    /// The pipeline's `runs_on`: the runner of steps that name none.
    package var runsOn: Runner?
    /// The pipeline's `tool` block, checked to be an object: where exported CI jobs get `release` (read by the export).
    package var tool: JSONNode?
    /// The pipeline's `attest`: exported workflows attest the provenance of what the release publishes.
    package var attest = false

    package func step(_ id: String) -> StepDefinition? {
        steps.first { $0.id == id }
    }
}
