import Foundation
import ReleaseHTTP
import ReleasePipeline
import ReleasePlanning
import ReleaseSupport

/// `release export`'s whole flow once the command line is parsed, for every engine: load the pipeline, choose where
/// the jobs get `release`, render the engine's file, write it (or print it) and say what it holds. The command only
/// turns its arguments into a ``Request``.
package struct ExportService: Sendable {
    /// The CI engines a pipeline exports to.
    package enum Engine: String, Sendable, CaseIterable {
        case githubActions = "github-actions"
        case gitlabCI = "gitlab-ci"
    }

    /// What the command line asked for.
    package struct Request: Sendable {
        package var engine: Engine
        /// A pipeline file or name; nil: the default.
        package var pipeline: String?
        /// The profile every job runs with; nil: the profiles choose by branch.
        package var profile: String?
        /// Where to write the file; nil: standard output.
        package var output: String?
        /// `--tool-source`, overriding the pipeline's `tool` block.
        package var toolSource: String?
        /// Attest the provenance of every published file (GitHub Actions).
        package var attest: Bool
        /// `LABEL=TAG[,TAG]` mappings of runner labels to GitLab runner tags, as written.
        package var runnerTags: [String]

        package init(
            engine: Engine, pipeline: String? = nil, profile: String? = nil, output: String? = nil, toolSource: String? = nil,
            attest: Bool = false, runnerTags: [String] = []
        ) {
            self.engine = engine
            self.pipeline = pipeline
            self.profile = profile
            self.output = output
            self.toolSource = toolSource
            self.attest = attest
            self.runnerTags = runnerTags
        }
    }

    /// The folder the command runs in.
    package let directory: String
    package let environment: [String: String]
    package let console: any CommandConsole

    package init(directory: String, environment: [String: String], console: any CommandConsole) {
        self.directory = directory
        self.environment = environment
        self.console = console
    }

    /// Exports the pipeline.
    /// - Throws: ``CommandFailure``: an invalid pipeline or `tool` block (65), a bad option (64), a file that cannot
    ///   be written (1).
    package func run(_ request: Request) async throws(CommandFailure) {
        let validated = try await PipelineLoader.load(request.pipeline, directory: directory, environment: environment)
        // Paths in the file and its header are relative to the repository's top, where the jobs run: the same
        // pipeline exports the same bytes from any folder and any checkout.
        let top = ExportPaths.repositoryTop(containing: directory) ?? directory
        let path = ExportPaths.relative(PipelineLocator.resolve(request.pipeline, in: directory), in: directory, to: top)
        let command = ShellQuoting.commandLine(commandLine(request, pipelinePath: path, top: top))
        let exported: (text: String, warnings: [String], model: ExportedPipeline)
        do {
            // A mistake on the command line before the tool source, which may ask the network.
            let tags = try Self.runnerTags(request.runnerTags)
            let tool = try await toolSource(request.toolSource, pipeline: validated)
            switch request.engine {
            case .githubActions:
                let workflow = try GitHubActionsWorkflow(
                    pipeline: validated, pipelinePath: path, profile: request.profile, command: command, tool: tool, attest: request.attest)
                exported = (workflow.text, workflow.warnings, workflow.model)
            case .gitlabCI:
                let configuration = try GitLabCIPipeline(
                    pipeline: validated, pipelinePath: path, profile: request.profile, command: command, tool: tool,
                    runnerTags: tags)
                exported = (configuration.text, configuration.warnings, configuration.model)
            }
        } catch let error as PipelineError {
            // The pipeline's `tool` block.
            throw .invalidPipeline(error.diagnostics)
        } catch {
            throw .from(error)
        }
        for warning in exported.warnings { console.write("warning: \(warning)\n") }
        guard let output = request.output else {
            console.output(exported.text)
            return
        }
        do {
            let folder = (output as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try AtomicFile.write(exported.text, to: output)
        } catch {
            throw .failed("cannot write '\(output)': \(error)")
        }
        let jobs = exported.model.partition.jobs
        console.write("wrote \(output): \(jobs.count) job\(jobs.count == 1 ? "" : "s") (\(jobs.map { "\($0.id) on \($0.runner)" }.joined(separator: ", ")))\n")
        if let guardJob = exported.model.rolloutGuard {
            switch request.engine {
            case .githubActions:
                console.write(
                    "and job \(RolloutGuardJob.id) on \(RolloutGuardJob.runner) for \(guardJob.steps.joined(separator: ", ")), on the schedule '\(guardJob.schedule)' (UTC)\n")
            case .gitlabCI:
                console.write(
                    "and job \(RolloutGuardJob.id) for \(guardJob.steps.joined(separator: ", ")), run by a pipeline schedule: create one with cron '\(guardJob.schedule)' (CI/CD > Schedules)\n"
                )
            }
        }
    }

    /// The command the file's header says made it (and the jobs' check that it is current): the pipeline and output
    /// relative to the repository's top, and every option that changes the file.
    func commandLine(_ request: Request, pipelinePath: String, top: String) -> [String] {
        var command = ["release", "export", request.engine.rawValue, pipelinePath]
        if let profile = request.profile { command += ["--profile", profile] }
        if let output = request.output {
            let relative = ExportPaths.relative(output, in: directory, to: top)
            if !relative.hasPrefix("/") { command += ["--output", relative] }
        }
        if let toolSource = request.toolSource { command += ["--tool-source", toolSource] }
        if request.attest { command += ["--attest"] }
        for mapping in request.runnerTags { command += ["--runner-tags", mapping] }
        return command
    }

    /// `LABEL=TAG[,TAG]` mappings, by label.
    /// - Throws: ``UsageError`` for a mapping written otherwise.
    static func runnerTags(_ mappings: [String]) throws -> [String: [String]] {
        var tags: [String: [String]] = [:]
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            let values = parts.count == 2 ? parts[1].split(separator: ",").map(String.init) : []
            guard parts.count == 2, !parts[0].isEmpty, !values.isEmpty else {
                throw UsageError("--runner-tags '\(mapping)': write LABEL=TAG[,TAG], such as macos-15=saas-macos-medium-m1")
            }
            tags[parts[0]] = values
        }
        return tags
    }

    /// Where the exported jobs get `release`: `--tool-source`, else the pipeline's `tool` block, else the published
    /// tarballs of this build (when a repository was stamped into it), pinned.
    /// - Throws: ``UsageError`` for a bad `--tool-source` or when nothing says where `release` comes from;
    ///   ``PipelineError`` for an invalid `tool` block.
    func toolSource(_ option: String?, pipeline: ValidatedPipeline) async throws -> ToolSource {
        var tool: ToolSource?
        if let block = pipeline.definition.tool { tool = try ToolSource.decode(block, file: pipeline.definition.file) }
        if let option { tool = try ToolSource.parse(option) }
        guard let chosen = tool ?? ToolSource.default else { throw UsageError(ToolSource.missingRepository) }
        return try await chosen.pinned(using: HTTPClient(configuration: .init(connectTimeout: .seconds(15), totalTimeout: .seconds(60))))
    }
}
