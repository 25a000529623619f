import ArgumentParser
import ReleaseKit

/// `release steps`: every step kind with its options and an example.
struct StepsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "List every step kind with its options, outputs and an example."
    )

    @Flag(help: "Print JSON for programs.")
    var json = false

    func run() throws {
        let registry = try StepRegistry.builtIn
        if json {
            Terminal.writeOutput(RunReport.encode(StepCatalog.json(registry), pretty: true, masker: SecretMasker()) + "\n")
        } else {
            Terminal.writeOutput(StepCatalog.text(registry))
        }
    }
}
