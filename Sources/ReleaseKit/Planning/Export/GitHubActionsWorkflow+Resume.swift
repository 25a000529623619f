import ReleaseSupport

/// Resuming releases that ended waiting on Apple (``WorkflowResume``), in GitHub's words: a `schedule` (every 30
/// minutes) and `repository_dispatch` (`release-resume`, for a webhook relay, optionally with `client_payload.branch`)
/// run one job, `open-releases`, which starts a `workflow_dispatch` run with `resume: true` on each release branch whose
/// newest record of a waiting job is a waiting archive (at most ``WorkflowResume/maximumReleases`` per run); that run
/// finds the archive (`find-JOB`) and runs the job again from it (`resume-JOB`), on the runner the job needs, with only
/// its own secrets. The jobs that make a release run only on `push` and on a `workflow_dispatch` without `resume`.
extension GitHubActionsWorkflow {
    /// The condition of the jobs that make a release.
    static let releaseRunCondition = "github.event_name == 'push' || (github.event_name == 'workflow_dispatch' && !inputs.resume)"
    /// How often the schedule looks for waiting releases.
    static let resumeSchedule = "*/30 * * * *"
    /// The `repository_dispatch` type a webhook relay sends.
    static let resumeDispatchType = "release-resume"
    /// The artifact a job leaves when a step waits (its archive), and the one it leaves when none does.
    static func waitingArtifact(of job: String) -> String { "release-waiting-\(job)" }
    static func doneArtifact(of job: String) -> String { "release-done-\(job)" }

    /// The header lines that say how a release waiting on Apple resumes; none without a waiting job.
    func resumeSummary(_ waiting: [ExportedJob]) -> [String] {
        guard !waiting.isEmpty else { return [] }
        let ids = waiting.map(\.id).joined(separator: ", ")
        return [
            "A step that waits on Apple (job \(ids)) ends its run green and *waiting* once its wait budget runs out: no runner waits.",
            "The job keeps what it ran with (artifact release-waiting-JOB); every 30 minutes `open-releases` starts a resume",
            "(workflow_dispatch with resume: true) on each release branch that waits, which runs that job alone from it:",
            "nothing is built or uploaded again. A webhook relay resumes at once with a repository_dispatch of type",
            "\(Self.resumeDispatchType) (client_payload.branch picks one branch); a manual run with resume: true does too.",
        ]
    }

    /// `on:` beside `push`: manual runs (and resumes), the schedule (with a rollout guard's, when the pipeline has
    /// one: `on:` holds one `schedule:` list), and the webhook relay's dispatch.
    func writeResumeTriggers(guardSchedule: String?, into out: inout YAMLWriter) {
        out.line(1, "workflow_dispatch:")
        out.line(2, "inputs:")
        out.line(3, "resume:")
        out.line(4, "description: 'Resume the release of this branch that waits on Apple (nothing is built again)'")
        out.line(4, "type: boolean")
        out.line(4, "default: false")
        out.line(1, "schedule:")
        out.line(2, "- cron: \(YAMLWriter.scalar(Self.resumeSchedule))")
        if let guardSchedule, guardSchedule != Self.resumeSchedule { out.line(2, "- cron: \(YAMLWriter.scalar(guardSchedule))") }
        out.line(1, "repository_dispatch:")
        out.line(2, "types: [\(Self.resumeDispatchType)]")
    }

    /// The step before a waiting job's run: where it starts.
    func writeBeforeWaiting(_ job: ExportedJob, into out: inout YAMLWriter) {
        writeScript("Note where the job starts", WorkflowResume.before(job: job.id, temporary: "$RUNNER_TEMP"), into: &out)
    }

    /// The steps after a waiting job's run: its archive when a step waits, else the done mark, uploaded for the run
    /// that resumes it.
    func writeAfterWaiting(_ job: ExportedJob, into out: inout YAMLWriter) {
        let key = "\"${RELEASE_JOURNAL_KEY:-github:$GITHUB_REPOSITORY:$GITHUB_RUN_ID}\""
        let script =
            WorkflowResume.save(job: job.id, paths: job.waitingPaths, temporary: "$RUNNER_TEMP", key: key) + [
                "if [ -s \(WorkflowResume.archive(of: job.id)) ]; then",
                "  echo \"name=\(Self.waitingArtifact(of: job.id))\" >> \"$GITHUB_OUTPUT\"",
                "else",
                "  echo \"name=\(Self.doneArtifact(of: job.id))\" >> \"$GITHUB_OUTPUT\"",
                "fi",
            ]
        writeScript("Keep what the job ran with while a step waits on Apple", id: "waiting", script, into: &out)
        out.line(3, "- name: Upload it for the run that resumes the release")
        out.line(4, "uses: actions/upload-artifact@v6")
        out.line(4, "with:")
        out.line(5, "name: ${{ steps.waiting.outputs.name }}")
        out.line(5, "path: \(WorkflowResume.folder)/")
        out.line(5, "include-hidden-files: true")
        out.line(5, "if-no-files-found: error")
        out.line(5, "overwrite: true")
        out.line(5, "retention-days: 7")
    }

    /// The condition of a job that runs on the schedule `cron`: any scheduled run, unless the workflow has another
    /// schedule (`other`, a rollout guard's or the resumes'), when it is the run of its own cron
    /// (`github.event.schedule` is the cron that started the run).
    static func scheduleCondition(_ cron: String, other: String?) -> String {
        guard let other, other != cron else { return "github.event_name == 'schedule'" }
        return "(github.event_name == 'schedule' && github.event.schedule == '\(cron)')"
    }

    /// `open-releases`, and `find-JOB` and `resume-JOB` for each waiting job.
    func writeResumeJobs(_ waiting: [ExportedJob], sharingScheduleWith other: String?, into out: inout YAMLWriter) {
        let names = waiting.map { "\"\(Self.waitingArtifact(of: $0.id))\", \"\(Self.doneArtifact(of: $0.id))\"" }.joined(separator: ", ")
        writeJob(
            "open-releases", name: "Resume the releases waiting on Apple",
            if: "\(Self.scheduleCondition(Self.resumeSchedule, other: other)) || github.event_name == 'repository_dispatch'", runsOn: "ubuntu-latest",
            permissions: [("actions", "write"), ("contents", "read")], into: &out)
        let script =
            [
                "workflow=\"${RELEASE_WORKFLOW%@*}\"",
                "workflow=\"${workflow##*/}\"",
                // The newest 100 artifacts: per branch and job, the newest record says whether the release still waits.
                "gh api \"repos/$GITHUB_REPOSITORY/actions/artifacts?per_page=100\" > \"$RUNNER_TEMP/release-artifacts.json\"",
                "jq -r '[.artifacts[] | select(.expired | not) | select(.name | IN(\(names))) | {branch: .workflow_run.head_branch, job: (.name | sub(\"^release-(waiting|done)-\"; \"\")), waiting: (.name | startswith(\"release-waiting-\")), at: .created_at}] | group_by([.branch, .job]) | map(max_by(.at)) | map(select(.waiting) | .branch) | unique | .[]' \"$RUNNER_TEMP/release-artifacts.json\" > \"$RUNNER_TEMP/release-waiting-branches\"",
                "count=0",
            ]
            + WorkflowResume.resumeLoop(
                branches: model.branches, listedIn: "\"$RUNNER_TEMP/release-waiting-branches\"",
                skip: ["if [ -n \"$RELEASE_RESUME_BRANCH\" ] && [ \"$branch\" != \"$RELEASE_RESUME_BRANCH\" ]; then continue; fi"],
                start: "gh workflow run \"$workflow\" --ref \"$branch\" -f resume=true")
        writeScript(
            "Start a resume on each release branch whose job waits on Apple",
            environment: [
                ("GH_TOKEN", "${{ github.token }}"), ("RELEASE_WORKFLOW", "${{ github.workflow_ref }}"),
                ("RELEASE_RESUME_BRANCH", "${{ github.event.client_payload.branch }}"),
            ], script, into: &out)

        for job in waiting {
            let find = "find-\(job.id)"
            let archive = "\"$RUNNER_TEMP/release-waiting/\(job.id).tar.gz\""
            writeJob(
                find, name: Self.literal("Find what job \(job.id) waited on Apple with"), if: "github.event_name == 'workflow_dispatch' && inputs.resume",
                runsOn: "ubuntu-latest", permissions: [("actions", "read"), ("contents", "read")], outputs: [("run", "${{ steps.find.outputs.run }}")],
                into: &out)
            writeCheckout(into: &out)
            let findScript = [
                "gh api \"repos/$GITHUB_REPOSITORY/actions/artifacts?per_page=100\" > \"$RUNNER_TEMP/release-artifacts.json\"",
                "run=\"$(jq -r --arg branch \"$GITHUB_REF_NAME\" '[.artifacts[] | select(.expired | not) | select(.workflow_run.head_branch == $branch) | select(.name == \"\(Self.waitingArtifact(of: job.id))\" or .name == \"\(Self.doneArtifact(of: job.id))\")] | max_by(.created_at) // {} | select(.name == \"\(Self.waitingArtifact(of: job.id))\") | .workflow_run.id' \"$RUNNER_TEMP/release-artifacts.json\")\"",
                "if [ -z \"$run\" ]; then",
                "  echo \"release: no release of $GITHUB_REF_NAME waits on Apple in job \(job.id)\" >&2",
                "  exit 0",
                "fi",
                "gh run download \"$run\" --name \(Self.waitingArtifact(of: job.id)) --dir \"$RUNNER_TEMP/release-waiting\"",
                "tar -xzf \(archive) -C \"$RUNNER_TEMP/release-waiting\" \(WorkflowResume.folder)/\(job.id).head",
                "waited_at=\"$(cat \"$RUNNER_TEMP/release-waiting/\(WorkflowResume.folder)/\(job.id).head\")\"",
                "if [ \"$(git rev-parse HEAD)\" != \"$waited_at\" ]; then",
                "  echo \"release: $GITHUB_REF_NAME is at $(git rev-parse --short HEAD), and job \(job.id) waited at $(git rev-parse --short \"$waited_at\" 2>/dev/null || echo \"$waited_at\"): a newer run releases it; nothing to resume\" >&2",
                "  exit 0",
                "fi",
                "echo \"run=$run\" >> \"$GITHUB_OUTPUT\"",
            ]
            writeScript(
                "Find the newest record of the job on this branch", id: "find", environment: [("GH_TOKEN", "${{ github.token }}")], findScript,
                into: &out)

            writeJob(
                "resume-\(job.id)", name: Self.literal("Resume \(job.runner): \(job.steps.joined(separator: ", "))"), needs: find,
                if: "needs.\(find).outputs.run != ''", runsOn: runsOn(job),
                permissions: [("actions", "read"), ("contents", job.writesRepository ? "write" : "read")], into: &out)
            writeCheckout(into: &out)
            install(into: &out)
            let start =
                [
                    "gh run download \"$RELEASE_WAITED_RUN\" --name \(Self.waitingArtifact(of: job.id)) --dir \"$RUNNER_TEMP/release-waiting\""
                ]
                + WorkflowResume.unpack(
                    job: job.id, found: archive, stop: "exit 1", exportKey: "echo \"RELEASE_JOURNAL_KEY=$key\" >> \"$GITHUB_ENV\"")
                + (job.inherits.isEmpty ? [] : WorkflowState.restore(ancestors: job.inherits, temporary: "$RUNNER_TEMP", annotation: "::error::"))
                + WorkflowResume.before(job: job.id, temporary: "$RUNNER_TEMP")
            writeScript(
                "Start where the job waited",
                environment: [("GH_TOKEN", "${{ github.token }}"), ("RELEASE_WAITED_RUN", "${{ needs.\(find).outputs.run }}")], start, into: &out)
            writeRun(job, into: &out)
            writeAfterWaiting(job, into: &out)
        }
    }
}
