import ArgumentParser
import ReleaseExecution
import ReleasePlanning
import ReleaseSupport

extension PipelineArguments {
    /// `release signing status`, `release rollout status`: plans the pipeline here as a dry run, assesses `Status` on
    /// the plan, prints it (JSON on standard output with `json`, else text on standard error, secrets masked either
    /// way), and exits 1 when a step could not be read.
    func printStatus<Status: PipelineStatus>(_ type: Status.Type, json: Bool) async throws {
        let directory = Platform.currentDirectory()
        let validated = try await load(directory: directory, format: .auto)
        let plan: Plan
        do {
            var options = RunOptions(workingDirectory: directory, profile: profile, variables: try parsedVariables(), dryRun: true)
            if let os { options.os = os }
            plan = try await Planner().plan(validated, options: options)
        } catch let error as UsageError {
            throw usageFailure(error)
        }
        let status = await Status.assess(plan)
        if json {
            Terminal.writeOutput(RunReport.encode(status.json, pretty: true, masker: plan.interpolator.masker) + "\n")
        } else {
            Terminal.writeError(plan.interpolator.masker.mask(status.text))
        }
        if !status.succeeded { throw ExitCode(1) }
    }
}
