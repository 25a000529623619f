import ReleasePipeline
import ReleaseSupport

/// The rollout guard's scheduled job in a GitHub Actions workflow (``RolloutGuardJob``).
extension GitHubActionsWorkflow {
    /// `schedule:` under `on:`.
    func writeSchedule(_ job: RolloutGuardJob, into out: inout YAMLWriter) {
        out.line(1, "schedule:")
        out.line(2, "- cron: \(YAMLWriter.scalar(job.schedule))")
    }

    /// The job: on Linux, only on the schedule, with the secrets its steps read and `contents: write` for the push of
    /// the guard's state note (`refs/notes/release-rollout`) with the checkout's token.
    /// `other` is the workflow's other schedule (the resumes'), if any: the guard then runs only on its own.
    func writeGuardJob(_ job: RolloutGuardJob, sharingScheduleWith other: String?, into out: inout YAMLWriter) {
        out.line(1, "\(RolloutGuardJob.id):")
        out.line(2, "name: \(Self.literal("rollout guard: \(job.steps.joined(separator: ", "))"))")
        out.line(2, "if: \(YAMLWriter.scalar(Self.scheduleCondition(job.schedule, other: other)))")
        out.line(2, "runs-on: \(Self.literal(RolloutGuardJob.runner))")
        out.line(2, "permissions:")
        out.line(3, "contents: write")
        out.line(2, "steps:")
        writeCheckout(into: &out)
        install(into: &out)
        var arguments = ["release", "run", "\"$RELEASE_PIPELINE\""]
        if profile != nil { arguments += ["--profile", "\"$RELEASE_PROFILE\""] }
        for step in job.steps { arguments += ["--only", ShellQuoting.quote(step)] }
        out.line(3, "- name: \(Self.literal("Guard the phased release: " + job.steps.joined(separator: ", ")))")
        out.line(4, "run: \(YAMLWriter.scalar(arguments.joined(separator: " ")))")
        // What the guards and the steps they need read: `--only` runs those steps too.
        let steps = job.steps.reduce(into: Set(job.steps)) { $0.formUnion(pipeline.graph.ancestors(of: $1)) }.sorted()
        let references = references(ofSteps: steps)
        out.line(4, "env:")
        var entries = [("RELEASE_PIPELINE", Self.literal(pipelinePath))] + (profile.map { [("RELEASE_PROFILE", Self.literal($0))] } ?? [])
        var mapped = references.secrets.map { ($0, "${{ secrets.\($0) }}") }
        mapped += references.variables.subtracting(references.secrets).map { ($0, "${{ vars.\($0) }}") }
        entries += mapped.filter { !["RELEASE_PIPELINE", "RELEASE_PROFILE"].contains($0.0) }.sorted(by: { $0.0 < $1.0 }).map { ($0.0, YAMLWriter.scalar($0.1)) }
        for (name, value) in entries { out.line(5, "\(name): \(value)") }
    }
}
