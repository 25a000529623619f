import ArgumentParser
import Foundation
import ReleaseExecution

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
            try await pipeline.printStatus(RolloutStatus.self, json: json)
        }
    }
}
