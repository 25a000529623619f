import ArgumentParser
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// `release schema`: the JSON Schema of pipeline files, for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of pipeline files, for editor autocompletion.",
        discussion: """
            Save it and point "$schema" (or the editor's JSON schema setting) at it: release schema > release.schema.json, \
            then "$schema": "../release.schema.json" in Pipelines/release.json.
            """
    )

    func run() throws {
        Terminal.writeOutput(PipelineSchema.text(registry: try StepRegistry.builtIn))
    }
}
