import ReleaseSupport

/// The rollout guard's scheduled job in a GitLab CI file (``RolloutGuardJob``).
extension GitLabCIPipeline {
    /// The job: on Linux, only in scheduled pipelines (GitLab keeps schedules outside the file: the comment says
    /// which to create), its secrets in its own environment. The state note is pushed with the job's credentials:
    /// allow CI/CD job tokens to push to the repository, or give the job a deploy key that may.
    /// With resumes in the same file (`sharingSchedulesWithResumes`), the guard's schedule says it is the guard's
    /// with ``scheduleVariable``, and the guard runs in no other scheduled pipeline.
    func writeGuardJob(_ job: ExportedGuardJob, sharingSchedulesWithResumes: Bool, into out: inout YAMLWriter) {
        let secrets = job.secrets
        out.comment("The rollout guard: create a pipeline schedule (CI/CD > Schedules) with cron '\(job.schedule)' (UTC) on the")
        out.comment("default branch. It pushes its state as a git note (refs/notes/release-rollout): let the job's token push.")
        if sharingSchedulesWithResumes {
            out.comment("Give that schedule the variable \(Self.scheduleVariable)=\(RolloutGuardJob.id): the resumes' schedule runs open-releases, this one the guard.")
        }
        if !secrets.isEmpty { out.comment("  \(Self.environment(of: RolloutGuardJob.id)): \(secrets.joined(separator: ", "))") }
        out.line(0, "\(RolloutGuardJob.id):")
        out.line(1, "stage: release")
        out.line(1, "rules:")
        out.line(2, "- if: \(YAMLWriter.scalar(Self.scheduleCondition(ofGuard: true, sharing: sharingSchedulesWithResumes)))")
        out.line(1, "image: \(YAMLWriter.scalar(Self.linuxImage))")
        out.line(1, "needs: []")
        if !secrets.isEmpty {
            out.line(1, "environment:")
            out.line(2, "name: \(YAMLWriter.scalar(Self.environment(of: RolloutGuardJob.id)))")
            out.line(2, "action: prepare")
        }
        out.line(1, "script:")
        block(install, into: &out)
        out.line(2, "- \(YAMLWriter.scalar(model.command(of: job)))")
    }
}
