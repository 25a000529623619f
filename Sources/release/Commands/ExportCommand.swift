import ArgumentParser
import Foundation
import ReleaseExecution
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

        @Argument(help: PipelineArguments.pipelineHelp, completion: .pipelineNames)
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
            try await ExportCommand.export(
                ExportService.Request(
                    engine: .githubActions, pipeline: pipeline, profile: profile, output: output, toolSource: toolSource, attest: attest))
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

        @Argument(help: PipelineArguments.pipelineHelp, completion: .pipelineNames)
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
            try await ExportCommand.export(
                ExportService.Request(
                    engine: .gitlabCI, pipeline: pipeline, profile: profile, output: output, toolSource: toolSource, runnerTags: runnerTags))
        }
    }

    /// Runs ``ExportService`` in the current folder on the terminal.
    static func export(_ request: ExportService.Request) async throws {
        let service = ExportService(directory: Platform.currentDirectory(), environment: ProcessInfo.processInfo.environment, console: TerminalConsole())
        do {
            try await service.run(request)
        } catch {
            throw error.exit()
        }
    }
}
