import ArgumentParser
import Foundation
import ReleaseExecution

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
            try await pipeline.printStatus(SigningStatus.self, json: json)
        }
    }
}
