import ArgumentParser
import Foundation
import ReleaseExecution
import ReleaseHTTP
import ReleasePipeline
import ReleasePlanning
import ReleaseSupport

/// `release export`: the pipeline as another engine's configuration.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a pipeline to a CI engine.",
        subcommands: [GitHubActions.self, GitLabCI.self]
    )

    /// `release export github-actions`: a GitHub Actions workflow whose jobs run the pipeline across runners.
    struct GitHubActions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "github-actions",
            abstract: "Write a GitHub Actions workflow: one job per group of steps that share a runner (runs_on), state handed between jobs.",
            discussion: """
                Each job runs its steps with 'release run PIPELINE --resume --only …' and hands the run journal and the \
                folders its steps create to the jobs after it as artifacts, with a git bundle of its commits and changes to tracked files. The same pipeline gives the same bytes.
                """
        )

        @Argument(
            help: "A pipeline file, or a name resolved as Pipelines/NAME.json (default: Pipelines/release.json).",
            completion: .custom { _, _, prefix in
                PipelineCompletion.escaped(PipelineCompletion.pipelineNames(in: Platform.currentDirectory(), prefix: prefix), for: CompletionShell.requesting?.rawValue)
            })
        var pipeline: String?

        @Option(help: "Run every job with this profile, and trigger on its branches only (default: the profiles choose by branch).")
        var profile: String?

        @Option(help: "Write the workflow to this file (such as .github/workflows/release.yml) instead of standard output.")
        var output: String?

        @Option(
            help: ArgumentHelp(
                "Where the jobs get release: download[:URL] (the default, when this build knows the repository it is published in: this version's published tarballs, SHA-256 pinned), homebrew:OWNER/TAP[/FORMULA], mint:OWNER/NAME[@VERSION] or swiftpm:GIT-URL[@TAG]; overrides the pipeline's tool block.",
                valueName: "source"))
        var toolSource: String?

        @Flag(help: "Attest the provenance of every file the release publishes (actions/attest-build-provenance), as 'attest: true' in the pipeline does.")
        var attest = false

        func run() async throws {
            let directory = Platform.currentDirectory()
            let validated = try await PipelineArguments.load(pipeline, directory: directory, format: .auto)
            // Paths in the workflow and its header are relative to the repository's top, where the jobs run: the same
            // pipeline exports the same bytes from any folder and any checkout.
            let top = ExportPaths.repositoryTop(containing: directory) ?? directory
            let path = ExportPaths.relative(PipelineLocator.resolve(pipeline, in: directory), in: directory, to: top)
            var command = ["release", "export", "github-actions", path]
            if let profile { command += ["--profile", profile] }
            if let output {
                let relative = ExportPaths.relative(output, in: directory, to: top)
                if !relative.hasPrefix("/") { command += ["--output", relative] }
            }
            if let toolSource { command += ["--tool-source", toolSource] }
            if attest { command += ["--attest"] }
            let workflow: GitHubActionsWorkflow
            do {
                let tool = try await exportedToolSource(toolSource, pipeline: validated)
                workflow = try GitHubActionsWorkflow(
                    pipeline: validated, pipelinePath: path, profile: profile,
                    command: ShellQuoting.commandLine(command), tool: tool, attest: attest)
            } catch let error as UsageError {
                throw usageFailure(error)
            }
            for warning in workflow.warnings { Terminal.writeError("warning: \(warning)\n") }
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
            if let guardJob = RolloutGuardJob(workflow.pipeline) {
                Terminal.writeError(
                    "and job \(RolloutGuardJob.id) on \(RolloutGuardJob.runner) for \(guardJob.steps.joined(separator: ", ")), on the schedule '\(guardJob.schedule)' (UTC)\n")
            }
        }
    }

    /// `release export gitlab-ci`: a `.gitlab-ci.yml` whose jobs run the pipeline across runners.
    struct GitLabCI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gitlab-ci",
            abstract: "Write GitLab CI configuration: one job per group of steps that share a runner (runs_on), needs for the DAG, state as artifacts.",
            discussion: """
                Each job runs its steps with 'release run PIPELINE --resume --only …' and hands the run journal, the folders \
                its steps create and a git bundle of its commits and changes to tracked files to the jobs after it as artifacts. Secrets are \
                CI/CD variables scoped to the environment of the job that uses them. The same pipeline gives the same bytes.
                """
        )

        @Argument(
            help: "A pipeline file, or a name resolved as Pipelines/NAME.json (default: Pipelines/release.json).",
            completion: .custom { _, _, prefix in
                PipelineCompletion.escaped(PipelineCompletion.pipelineNames(in: Platform.currentDirectory(), prefix: prefix), for: CompletionShell.requesting?.rawValue)
            })
        var pipeline: String?

        @Option(help: "Run every job with this profile, and run on its branches only (default: the profiles choose by branch).")
        var profile: String?

        @Option(help: "Write the configuration to this file (such as .gitlab-ci.yml) instead of standard output.")
        var output: String?

        @Option(help: ArgumentHelp("Where the jobs get release, as for github-actions.", valueName: "source"))
        var toolSource: String?

        @Option(help: ArgumentHelp("The GitLab runner tags for a runs_on label (default: the label itself; GitHub's ubuntu-* labels: none).", valueName: "label=tag[,tag]"))
        var runnerTags: [String] = []

        func run() async throws {
            let directory = Platform.currentDirectory()
            let validated = try await PipelineArguments.load(pipeline, directory: directory, format: .auto)
            let top = ExportPaths.repositoryTop(containing: directory) ?? directory
            let path = ExportPaths.relative(PipelineLocator.resolve(pipeline, in: directory), in: directory, to: top)
            var command = ["release", "export", "gitlab-ci", path]
            if let profile { command += ["--profile", profile] }
            if let output {
                let relative = ExportPaths.relative(output, in: directory, to: top)
                if !relative.hasPrefix("/") { command += ["--output", relative] }
            }
            if let toolSource { command += ["--tool-source", toolSource] }
            for mapping in runnerTags { command += ["--runner-tags", mapping] }
            let configuration: GitLabCIPipeline
            do {
                var tags: [String: [String]] = [:]
                for mapping in runnerTags {
                    let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
                    let values = parts.count == 2 ? parts[1].split(separator: ",").map(String.init) : []
                    guard parts.count == 2, !parts[0].isEmpty, !values.isEmpty else {
                        throw UsageError("--runner-tags '\(mapping)': write LABEL=TAG[,TAG], such as macos-15=saas-macos-medium-m1")
                    }
                    tags[parts[0]] = values
                }
                let tool = try await exportedToolSource(toolSource, pipeline: validated)
                configuration = try GitLabCIPipeline(
                    pipeline: validated, pipelinePath: path, profile: profile,
                    command: ShellQuoting.commandLine(command), tool: tool, runnerTags: tags)
            } catch let error as UsageError {
                throw usageFailure(error)
            }
            for warning in configuration.warnings { Terminal.writeError("warning: \(warning)\n") }
            guard let output else {
                Terminal.writeOutput(configuration.text)
                return
            }
            do {
                let folder = (output as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                try AtomicFile.write(configuration.text, to: output)
            } catch {
                Terminal.writeError("error: cannot write '\(output)': \(error)\n")
                throw ExitCode(ExitCodes.stepFailed)
            }
            let jobs = configuration.partition.jobs
            Terminal.writeError("wrote \(output): \(jobs.count) job\(jobs.count == 1 ? "" : "s") (\(jobs.map { "\($0.id) on \($0.runner)" }.joined(separator: ", ")))\n")
            if let guardJob = RolloutGuardJob(configuration.actions.pipeline) {
                Terminal.writeError(
                    "and job \(RolloutGuardJob.id) for \(guardJob.steps.joined(separator: ", ")), run by a pipeline schedule: create one with cron '\(guardJob.schedule)' (CI/CD > Schedules)\n"
                )
            }
        }
    }
}

/// Where the exported jobs get `release`: `--tool-source`, else the pipeline's `tool` block, else the published tarballs
/// of this build (when a repository was stamped into it), pinned.
/// - Throws: ``UsageError`` (exit 64) for a bad `--tool-source` or when nothing says where `release` comes from; an
///   invalid `tool` block is an invalid pipeline (printed with its line and JSON path, exit 65).
func exportedToolSource(_ option: String?, pipeline: ValidatedPipeline) async throws -> ToolSource {
    var tool: ToolSource?
    if let block = pipeline.definition.tool {
        do {
            tool = try ToolSource.decode(block, file: pipeline.definition.file)
        } catch let error as PipelineError {
            printDiagnostics(error.diagnostics, format: .auto)
            throw ExitCode(ExitCodes.invalidPipeline)
        }
    }
    if let option { tool = try ToolSource.parse(option) }
    guard let chosen = tool ?? ToolSource.default else { throw UsageError(ToolSource.missingRepository) }
    return try await chosen.pinned(using: HTTPClient(configuration: .init(connectTimeout: .seconds(15), totalTimeout: .seconds(60))))
}
