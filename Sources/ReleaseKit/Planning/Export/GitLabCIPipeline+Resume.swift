import ReleaseSupport

/// Resuming releases that ended waiting on Apple (``WorkflowResume``), in GitLab's words: a scheduled pipeline runs
/// one job, `open-releases`, which triggers a pipeline with `RELEASE_RESUME=true` on each release branch whose latest
/// successful waiting job left an archive (at most ``WorkflowResume/maximumReleases`` per run); a webhook relay triggers
/// the same with a pipeline trigger token (`POST /projects/:id/trigger/pipeline` with `ref` and
/// `variables[RELEASE_RESUME]=true`). In such a pipeline only the waiting jobs run (their `needs` are optional): each
/// fetches its archive from the latest successful pipeline of the branch (`jobs/artifacts/REF/raw/…?job=JOB`, with
/// the job token) and runs again from it; without one nothing waits, and the job ends at once.
extension GitLabCIPipeline {
    /// The variable a resume pipeline is triggered with.
    static let resumeVariable = "RELEASE_RESUME"

    /// The header lines that say how a release waiting on Apple resumes; none without a waiting job.
    var resumeSummary: [String] {
        let waiting = model.waitingJobs
        guard !waiting.isEmpty else { return [] }
        return [
            "A step that waits on Apple (job \(waiting.map(\.id).joined(separator: ", "))) ends its pipeline green and *waiting* once its wait",
            "budget runs out: no runner waits. The job keeps what it ran with (.git/release-waiting/JOB.tar.gz). Add a pipeline",
            "schedule (every 30 minutes, on the default branch): its job open-releases triggers a pipeline with",
            "\(Self.resumeVariable)=true on each release branch that waits, which runs that job alone from it; nothing is built",
            "or uploaded again. A webhook relay resumes at once with a pipeline trigger token: POST",
            "/projects/:id/trigger/pipeline with ref=BRANCH and variables[\(Self.resumeVariable)]=true.",
        ]
    }

    /// `workflow: rules:` for schedules and triggered pipelines (a trigger token's, or the job token's).
    func writeResumeRules(into out: inout YAMLWriter) {
        for source in ["schedule", "trigger", "pipeline"] {
            out.line(2, "- if: \(YAMLWriter.scalar("$CI_PIPELINE_SOURCE == \"\(source)\""))")
        }
    }

    /// A job's `rules:`: no job runs in a scheduled pipeline (`open-releases` starts the resumes), and in a resume
    /// pipeline only the waiting jobs do.
    func writeRules(resumes: Bool, into out: inout YAMLWriter) {
        out.line(1, "rules:")
        let condition =
            resumes ? "$CI_PIPELINE_SOURCE == \"schedule\"" : "$CI_PIPELINE_SOURCE == \"schedule\" || $\(Self.resumeVariable) == \"true\""
        out.line(2, "- if: \(YAMLWriter.scalar(condition))")
        out.line(3, "when: never")
        out.line(2, "- when: on_success")
    }

    /// The branch named in `variable` as the API's path takes it (URL-encoded), in `$ref`.
    static func encodedRef(of variable: String) -> String {
        "ref=\"$(printf '%s' \"$\(variable)\" | sed -e 's/%/%25/g' -e 's|/|%2F|g' -e 's/#/%23/g' -e 's/?/%3F/g' -e 's/&/%26/g' -e 's/+/%2B/g')\""
    }

    /// The script item of a waiting job that, in a resume pipeline, starts it from its archive (or ends it when nothing
    /// waits).
    func resumeLines(_ job: ExportedJob) -> [String] {
        let found = "\"\(Self.temporary)/release-waiting.tar.gz\""
        return [
            "if [ \"${\(Self.resumeVariable):-}\" = true ]; then",
            "  mkdir -p \(Self.temporary)",
            "  \(Self.encodedRef(of: "CI_COMMIT_REF_NAME"))",
            "  status=\"$(curl -sS --location --header \"JOB-TOKEN: $CI_JOB_TOKEN\" --output \(found) --write-out '%{http_code}' \"$CI_API_V4_URL/projects/$CI_PROJECT_ID/jobs/artifacts/$ref/raw/\(WorkflowResume.archive(of: job.id))?job=\(job.id)\")\"",
            "  case \"$status\" in",
            "    200) ;;",
            "    404) echo \"release: no release of $CI_COMMIT_REF_NAME waits on Apple in job \(job.id)\" >&2; exit 0 ;;",
            "    *) echo \"release: GitLab answered $status for the archive of job \(job.id)\" >&2; exit 1 ;;",
            "  esac",
        ] + WorkflowResume.unpack(job: job.id, found: found, stop: "exit 0", exportKey: "export RELEASE_JOURNAL_KEY=\"$key\"").map { "  " + $0 } + ["fi"]
    }

    /// The variable a pipeline schedule sets to say it is the rollout guard's, when the file has both the guard and
    /// resumes: GitLab keeps schedules outside the file, and a scheduled pipeline runs every job its rules allow.
    static let scheduleVariable = "RELEASE_SCHEDULE"

    /// The condition of a job that runs in scheduled pipelines: any, unless the file has both the rollout guard and
    /// resumes (`sharing`), when the guard runs in the pipelines of its own schedule (``scheduleVariable``) and
    /// `open-releases` in the others.
    static func scheduleCondition(ofGuard isGuard: Bool, sharing: Bool) -> String {
        "$CI_PIPELINE_SOURCE == \"schedule\"" + (sharing ? " && $\(scheduleVariable) \(isGuard ? "==" : "!=") \"\(RolloutGuardJob.id)\"" : "")
    }

    /// `open-releases`: on a schedule (not the rollout guard's, when there is one), triggers a resume pipeline on each
    /// release branch with an archive.
    func writeOpenReleases(_ waiting: [ExportedJob], sharingSchedulesWithGuard: Bool, into out: inout YAMLWriter) {
        out.line(0, "open-releases:")
        out.line(1, "stage: release")
        out.line(1, "image: \(YAMLWriter.scalar(Self.linuxImage))")
        out.line(1, "rules:")
        out.line(2, "- if: \(YAMLWriter.scalar(Self.scheduleCondition(ofGuard: false, sharing: sharingSchedulesWithGuard)))")
        out.line(2, "- when: never")
        out.line(1, "needs: []")
        out.line(1, "script:")
        // A branch is open when one of its waiting jobs' latest successful run left an archive.
        let open =
            [Self.encodedRef(of: "branch"), "open="]
            + waiting.map { job in
                "if [ \"$(curl -sS --location --head --header \"JOB-TOKEN: $CI_JOB_TOKEN\" --output /dev/null --write-out '%{http_code}' \"$CI_API_V4_URL/projects/$CI_PROJECT_ID/jobs/artifacts/$ref/raw/\(WorkflowResume.archive(of: job.id))?job=\(job.id)\")\" = 200 ]; then open=yes; fi"
            } + ["if [ -z \"$open\" ]; then continue; fi"]
        let lines =
            [
                "set -eu",
                "count=0",
                "mkdir -p \(Self.temporary)",
                "git ls-remote --heads origin | sed 's|^.*refs/heads/||' > \(Self.temporary)/branches",
            ]
            + WorkflowResume.resumeLoop(
                branches: model.branches, listedIn: "\(Self.temporary)/branches", skip: open,
                start:
                    "curl -sS --fail --request POST --form \"token=$CI_JOB_TOKEN\" --form \"ref=$branch\" --form \"variables[\(Self.resumeVariable)]=true\" \"$CI_API_V4_URL/projects/$CI_PROJECT_ID/trigger/pipeline\" > /dev/null"
            )
        block(lines, into: &out)
    }
}
