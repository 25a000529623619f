import ArgumentParser
import Foundation
import ReleaseExecution
import ReleasePlanning
import ReleaseSupport

/// `release plan`: shows what a run would do, without running anything.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the chosen profile and the steps a run would start, in order."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, dot
    }

    @OptionGroup var pipeline: PipelineArguments

    @Option(help: "text, json or dot (Graphviz).")
    var format: Format = .text

    func run() async throws {
        let directory = Platform.currentDirectory()
        let validated = try await pipeline.load(directory: directory, format: .auto)
        let plan: Plan
        do {
            var options = RunOptions(workingDirectory: directory, profile: pipeline.profile, variables: try pipeline.parsedVariables())
            if let os = pipeline.os { options.os = os }
            plan = try await Planner().plan(validated, options: options)
        } catch let error as UsageError {
            throw usageFailure(error)
        }
        switch format {
        case .text: Terminal.writeOutput(PlanRenderer.text(plan))
        case .json: Terminal.writeOutput(RunReport.encode(PlanRenderer.json(plan), pretty: true, masker: SecretMasker()) + "\n")
        case .dot: Terminal.writeOutput(PlanRenderer.dot(plan))
        }
    }
}
