import ArgumentParser
import Foundation
import ReleaseKit

/// `release signing`: looks at code signing on App Store Connect for the pipeline's `signing.sync` steps.
struct SigningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing",
        abstract: "Code signing through App Store Connect (the pipeline's signing.sync steps).",
        subcommands: [StatusCommand.self]
    )

    /// `release signing status`: read-only.
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show which certificate and profiles a release would use, when they expire, and what signing.sync would change (read-only)."
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
            let status = await SigningStatus.assess(plan)
            if json {
                Terminal.writeOutput(RunReport.encode(status.json, pretty: true, masker: plan.interpolator.masker) + "\n")
            } else {
                Terminal.writeError(plan.interpolator.masker.mask(status.text))
            }
            if !status.succeeded { throw ExitCode(1) }
        }
    }
}
