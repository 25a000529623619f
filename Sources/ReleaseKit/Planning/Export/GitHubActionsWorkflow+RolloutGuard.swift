import ReleaseSupport

/// The rollout guard's scheduled job in a GitHub Actions workflow (``RolloutGuardJob``).
extension GitHubActionsWorkflow {
    /// `schedule:` under `on:`.
    func writeSchedule(_ job: ExportedGuardJob, into out: inout YAMLWriter) {
        out.line(1, "schedule:")
        out.line(2, "- cron: \(YAMLWriter.scalar(job.schedule))")
    }

    /// The job: on Linux, only on the schedule, with the secrets its steps read and `contents: write` for the push of
    /// the guard's state note (`refs/notes/release-rollout`) with the checkout's token.
    /// `other` is the workflow's other schedule (the resumes'), if any: the guard then runs only on its own.
    func writeGuardJob(_ job: ExportedGuardJob, sharingScheduleWith other: String?, into out: inout YAMLWriter) {
        writeJob(
            RolloutGuardJob.id, name: Self.literal("rollout guard: \(job.steps.joined(separator: ", "))"),
            if: YAMLWriter.scalar(Self.scheduleCondition(job.schedule, other: other)), runsOn: Self.literal(RolloutGuardJob.runner),
            permissions: [("contents", "write")], into: &out)
        writeCheckout(into: &out)
        install(into: &out)
        out.line(3, "- name: \(Self.literal("Guard the phased release: " + job.steps.joined(separator: ", ")))")
        out.line(4, "run: \(YAMLWriter.scalar(model.command(of: job)))")
        writeEnvironment(secrets: job.secrets, variables: job.variables, into: &out)
    }
}
