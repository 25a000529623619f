import ArgumentParser
import Foundation
import ReleaseKit

/// `release export`: the pipeline as another engine's configuration.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a pipeline to a CI engine.",
        subcommands: [GitHubActions.self]
    )

    /// `release export github-actions`: a GitHub Actions workflow whose jobs run the pipeline across runners.
    struct GitHubActions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "github-actions",
            abstract: "Write a GitHub Actions workflow: one job per group of steps that share a runner (runs_on), state handed between jobs.",
            discussion: """
                Each job runs its steps with 'release run PIPELINE --resume --only …' and hands the run journal and the \
                folders its steps create to the jobs after it as artifacts. The same pipeline gives the same bytes.
                """
        )

        @Argument(help: "A pipeline file, or a name resolved as Pipelines/NAME.json (default: Pipelines/release.json).",
                  completion: .custom { _, _, prefix in PipelineCompletion.escaped(PipelineCompletion.pipelineNames(in: Platform.currentDirectory(), prefix: prefix), for: CompletionShell.requesting?.rawValue) })
        var pipeline: String?

        @Option(help: "Run every job with this profile, and trigger on its branches only (default: the profiles choose by branch).")
        var profile: String?

        @Option(help: "Write the workflow to this file (such as .github/workflows/release.yml) instead of standard output.")
        var output: String?

        func run() async throws {
            let directory = Platform.currentDirectory()
            let validated = try await PipelineArguments.load(pipeline, directory: directory, format: .auto)
            var path = PipelineLocator.resolve(pipeline, in: directory)
            if path.hasPrefix(directory + "/") { path.removeFirst(directory.count + 1) }
            var command = ["release", "export", "github-actions", path]
            if let profile { command += ["--profile", profile] }
            if let output { command += ["--output", output] }
            let workflow: GitHubActionsWorkflow
            do {
                workflow = try GitHubActionsWorkflow(pipeline: validated, pipelinePath: path, profile: profile,
                                                     command: ShellQuoting.commandLine(command))
            } catch let error as UsageError {
                throw usageFailure(error)
            }
            guard let output else {
                Terminal.writeOutput(workflow.text)
                return
            }
            do {
                let folder = (output as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                try AtomicFile.write(workflow.text, to: output)
            } catch {
                Terminal.writeError("error: cannot write '\(output)': \(error)\n")
                throw ExitCode(ExitCodes.stepFailed)
            }
            let jobs = workflow.partition.jobs
            Terminal.writeError("wrote \(output): \(jobs.count) job\(jobs.count == 1 ? "" : "s") (\(jobs.map { "\($0.id) on \($0.runner)" }.joined(separator: ", ")))\n")
        }
    }
}
