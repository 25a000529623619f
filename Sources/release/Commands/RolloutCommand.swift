import ArgumentParser
import Foundation
import ReleaseKit

/// `release rollout`: looks at the phased releases the pipeline's rollout guards watch.
struct RolloutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Phased releases watched by the pipeline's appstore.rollout guards.",
        subcommands: [StatusCommand.self]
    )

    /// `release rollout status`: read-only.
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each guard's phased release, today's health numbers, what it would decide, and its last decision (read-only)."
        )

        @OptionGroup var pipeline: PipelineArguments

        @Flag(help: "Print the report as JSON on standard output.")
        var json = false

        func run() async throws {
            let directory = Platform.currentDirectory()
            let validated = try await pipeline.load(directory: directory, format: .auto)
            let plan: Plan
            do {
                var options = RunOptions(workingDirectory: directory, profile: pipeline.profile, variables: try pipeline.parsedVariables(), dryRun: true)
                if let os = pipeline.os { options.os = os }
                plan = try await Planner().plan(validated, options: options)
            } catch let error as UsageError {
                throw usageFailure(error)
            }
            let status = await RolloutStatus.assess(plan)
            if json {
                Terminal.writeOutput(RunReport.encode(status.json, pretty: true, masker: plan.interpolator.masker) + "\n")
            } else {
                Terminal.writeError(plan.interpolator.masker.mask(status.text))
            }
            if !status.succeeded { throw ExitCode(1) }
        }
    }
}
