import ArgumentParser
import Foundation
import ReleaseExecution
import ReleasePipeline
import ReleasePlanning
import ReleaseSupport

/// `release validate`: checks pipeline files and prints every problem.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check pipeline files; print every problem, not just the first.",
        discussion: "With no file, checks every Pipelines/*.json. Exits 65 when a file has problems."
    )

    @Argument(help: "Pipeline files or names (default: every Pipelines/*.json).")
    var pipelines: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Names defined on the command line at run time (repeatable).", valueName: "KEY=VALUE"))
    var variables: [String] = []

    func run() async throws {
        let directory = Platform.currentDirectory()
        var files = pipelines.map { PipelineLocator.resolve($0, in: directory) }
        if files.isEmpty { files = PipelineLocator.all(in: directory) }
        if files.isEmpty { files = [PipelineLocator.defaultPath] }
        let extra = Set(variables.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        var invalid = false
        for file in files {
            let absolute = file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file)
            do {
                let pipeline = try await PipelineLoader().load(
                    path: absolute, displayPath: file, extraVariables: extra,
                    plugins: pluginResolver(directory: directory))
                // The `tool` block is read where it is used, by `release export`: check it here too.
                if let block = pipeline.definition.tool, let problem = toolBlockProblem(block, file: pipeline.definition.file) {
                    invalid = true
                    printDiagnostics(problem.diagnostics, format: .auto)
                    continue
                }
                Terminal.writeError("ok: \(file) (\(pipeline.definition.steps.count) steps)\n")
            } catch {
                invalid = true
                printDiagnostics(error.diagnostics, format: .auto)
            }
        }
        if invalid { throw ExitCode(ExitCodes.invalidPipeline) }
    }
}

/// What is wrong with a pipeline's `tool` block, if anything.
private func toolBlockProblem(_ block: JSONNode, file: String) -> PipelineError? {
    do {
        _ = try ToolSource.decode(block, file: file)
        return nil
    } catch let error as PipelineError {
        return error
    } catch {
        return .invalid([Diagnostic(file: file, location: block.location, path: JSONPath.root.appending("tool"), message: "\(error)")])
    }
}
