import ArgumentParser
import Foundation
import ReleaseExecution
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// `release steps`: every step kind with its options and an example.
struct StepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "List every step kind with its options, outputs and an example."
    )

    @Flag(help: "Print JSON for programs.")
    var json = false

    @Argument(help: "Pipelines whose 'plugins' to list too (default: every Pipelines/*.json); PATH plugins are always listed.")
    var pipelines: [String] = []

    func run() async throws {
        let directory = Platform.currentDirectory()
        var files = pipelines.map { PipelineLocator.resolve($0, in: directory) }
        if files.isEmpty { files = PipelineLocator.all(in: directory) }
        var kinds = try StepRegistry.builtIn.kinds
        for file in files + [nil] {
            let absolute = file.map { $0.hasPrefix("/") ? $0 : (directory as NSString).appendingPathComponent($0) }
            let root = absolute.flatMap { PipelineLoader.readRoot(path: $0) }
            let resolution = await pluginResolver(directory: directory).resolve(root, file: file ?? "PATH")
            for diagnostic in resolution.diagnostics { Terminal.writeError("warning: \(diagnostic)\n") }
            for kind in resolution.registry?.kinds ?? [] where !kinds.contains(where: { $0.kind == kind.kind }) { kinds.append(kind) }
        }
        let registry = try StepRegistry(kinds: kinds)
        if json {
            Terminal.writeOutput(RunReport.encode(StepCatalog.json(registry), pretty: true, masker: SecretMasker()) + "\n")
        } else {
            Terminal.writeOutput(StepCatalog.text(registry))
        }
    }
}
