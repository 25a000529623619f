import Foundation
import ReleasePipeline
import ReleaseSupport

/// A pipeline exported as GitLab CI configuration (`release export gitlab-ci`): the renderer of an
/// ``ExportedPipeline`` in GitLab's words, the same jobs as ``GitHubActionsWorkflow`` (one per group of steps sharing a
/// runner, from ``WorkflowPartition``), with the same guarantees.
///
/// - The DAG is `needs:`; each job lists every earlier job whose state it takes (`artifacts: true`), so GitLab
///   downloads their artifacts (the run journal, the created folders, the git bundle of the commits and changes to
///   tracked files, ``WorkflowState``) before it starts.
/// - `tags:` come from `runs_on` (the labels as written; `--runner-tags LABEL=TAG,…` maps them to the team's runner
///   tags); GitHub's hosted Linux labels (`ubuntu-*`) mean "any shared runner" and give no tags, except the Arm ones
///   (`ubuntu-*-arm`), which ask for GitLab's hosted Arm runner (``armLinuxTag``). Linux jobs run in ``linuxImage``,
///   which has git and curl; a macOS job mapped to GitLab's hosted macOS runners (`saas-macos-…`) runs in the image of
///   its label's macOS and Xcode (``hostedMacOSImages``).
/// - Artifacts `expire_in` one week: long enough for a release, short enough not to pile up.
/// - `workflow: rules:` from the profiles' branch conditions (a push to a matching branch), and manual runs (`web`).
/// - Secrets are CI/CD variables, masked and protected, each scoped to the environment of the one job that uses it
///   (`release/JOB`, `action: prepare`, which deploys nothing): a job gets only its own steps' secrets. Jobs without
///   secrets have no environment. No `id_tokens` unless attesting is asked for (which GitLab does not offer here).
/// - Values GitLab would expand (`$NAME`) are written with `expand: false`; every value is escaped for YAML.
package struct GitLabCIPipeline: Sendable {
    /// The image Linux jobs run in: Debian's build image with git, curl and tar.
    package static let linuxImage = "buildpack-deps:bookworm-scm"
    /// The tag of GitLab.com's hosted Linux Arm runner (2 vCPUs, every tier): where `ubuntu-*-arm` jobs go.
    package static let armLinuxTag = "saas-linux-small-arm64"
    /// GitLab.com's hosted macOS VM images by the GitHub label of the same macOS and Xcode ("Hosted runners on
    /// macOS", docs.gitlab.com/ci/runners/hosted_runners/macos, "Supported macOS images": `macos-14-xcode-15`,
    /// deprecated, and `macos-15-xcode-16`). A label with no image here (`macos-26`) gets none: GitLab lists none yet.
    package static let hostedMacOSImages = ["macos-14": "macos-14-xcode-15", "macos-15": "macos-15-xcode-16"]
    /// How long GitLab keeps a job's state.
    package static let expireIn = "1 week"
    /// Where a job keeps its scratch files (the trees before and after its run): inside `.git`, so never uploaded.
    static let temporary = ".git/release-tmp"

    /// What the file renders.
    package let model: ExportedPipeline
    /// Runner label → GitLab runner tags (`--runner-tags`).
    package let runnerTags: [String: [String]]

    package init(_ model: ExportedPipeline, runnerTags: [String: [String]] = [:]) {
        self.model = model
        self.runnerTags = runnerTags
    }

    /// - Throws: ``UsageError`` as ``ExportedPipeline`` does.
    package init(
        pipeline: ValidatedPipeline, pipelinePath: String, profile: String?, command: String,
        tool: ToolSource, runnerTags: [String: [String]] = [:]
    ) throws {
        self.init(try ExportedPipeline(pipeline: pipeline, pipelinePath: pipelinePath, profile: profile, command: command, tool: tool), runnerTags: runnerTags)
    }

    /// The shell of a job's script on a GitLab runner, for the install script: POSIX sh (GitLab's images may have no
    /// bash), errors on standard error, the PATH exported for the script items after it.
    static let host = ScriptHost(
        strictMode: "set -eu", bash: false, scratch: "$CI_PROJECT_DIR/\(temporary)", error: { "echo \"\($0)\" >&2" },
        stop: { ["if \($0); then echo \"\($1)\" >&2; exit 1; fi"] }, addToPath: { "export PATH=\"\($0):$PATH\"" },
        homebrewFolder: nil, checksBuild: false)

    package var pipeline: ValidatedPipeline { model.pipeline }
    package var partition: WorkflowPartition { model.partition }
    package var warnings: [String] {
        model.warnings
            + partition.jobs.filter { isOnHostedMacOS($0.runner) && macOSImage(of: $0.runner) == nil }.map { job in
                "job \(job.id) runs on GitLab's hosted macOS runners, which have no image of \(job.runner) (they have "
                    + Self.hostedMacOSImages.values.sorted().joined(separator: ", ") + "): it gets their default image and its Xcode"
            }
    }

    /// Whether `--runner-tags` sends a runner's jobs to GitLab.com's hosted macOS runners (`saas-macos-…`).
    func isOnHostedMacOS(_ runner: Runner) -> Bool {
        runner.system == "macos" && tags(of: runner).contains { $0.hasPrefix("saas-macos-") }
    }

    /// The hosted VM image with the macOS and Xcode a runner's label names, for a job on GitLab's hosted macOS
    /// runners; nil for any other runner (a team's own Mac has the Xcodes it has).
    func macOSImage(of runner: Runner) -> String? {
        guard isOnHostedMacOS(runner) else { return nil }
        return runner.labels.lazy.compactMap { Self.hostedMacOSImages[$0.lowercased()] }.first
    }

    /// The environment a job's secrets are scoped to.
    package static func environment(of job: String) -> String { "release/\(job)" }

    /// The tags a job's runner gets.
    func tags(of runner: Runner) -> [String] {
        var tags: [String] = []
        for label in runner.labels {
            if let mapped = runnerTags[label] {
                tags += mapped
            } else if label.lowercased().hasPrefix("ubuntu-") {
                if label.lowercased().hasSuffix("-arm") { tags.append(Self.armLinuxTag) }
            } else {
                tags.append(label)
            }
        }
        return tags
    }

    /// The configuration file.
    package var text: String {
        let definition = pipeline.definition
        var out = YAMLWriter()
        out.comment("Generated by `release export gitlab-ci` from \(model.pipelinePath) (\(definition.name)); do not edit by hand.")
        out.comment("Regenerate with: \(model.command)")
        out.comment("")
        out.comment("Each job runs its steps of the pipeline with `release run --resume --only …` on the runner its tags choose.")
        out.comment(model.tool.summary)
        out.comment("A job hands its state to the jobs after it as artifacts (expire in \(Self.expireIn)): the run journal, the folders its")
        out.comment("steps create, and a git bundle of the commits it made and the tracked files it changed (the version bump and its")
        out.comment("commit), which the next job starts from, so a tag or a push there names the bumped commit.")
        for line in model.runnerSummary { out.comment(line) }
        for line in resumeSummary { out.comment(line) }
        out.comment("Secrets: add each as a CI/CD variable, masked and protected (protect the release branches too), scoped to the")
        out.comment("environment of the one job that uses it:")
        for job in model.jobs where !job.secrets.isEmpty {
            out.comment("  \(Self.environment(of: job.id)): \(job.secrets.joined(separator: ", "))")
        }
        if !model.variables.isEmpty { out.comment("Variables (not secret, any scope): \(model.variables.joined(separator: ", "))") }
        out.line(0, "workflow:")
        out.line(1, "rules:")
        for pattern in model.branches {
            out.line(2, "- if: \(YAMLWriter.scalar("$CI_PIPELINE_SOURCE == \"push\" && $CI_COMMIT_BRANCH =~ /\(Self.regex(pattern))/"))")
        }
        out.line(2, "- if: \(YAMLWriter.scalar("$CI_PIPELINE_SOURCE == \"web\""))")
        let waiting = model.waitingJobs
        let guardJob = model.rolloutGuard
        if !waiting.isEmpty {
            writeResumeRules(into: &out)
        } else if guardJob != nil {
            out.line(2, "- if: \(YAMLWriter.scalar("$CI_PIPELINE_SOURCE == \"schedule\""))")
        }
        out.line(0, "stages:")
        out.line(1, "- release")
        out.line(0, "variables:")
        out.line(1, "GIT_DEPTH: \"0\"")
        var variables = [("RELEASE_PIPELINE", model.pipelinePath)] + (model.profile.map { [("RELEASE_PROFILE", $0)] } ?? [])
        variables += model.tool.environment.map { ($0.name, $0.value) }
        for (name, value) in variables {
            out.line(1, "\(name):")
            out.line(2, "value: \(YAMLWriter.scalar(value))")
            out.line(2, "expand: false")
        }
        for job in model.jobs {
            out.line(0, "\(job.id):")
            out.line(1, "stage: release")
            // With waiting jobs, their rules keep every release job out of scheduled pipelines already.
            if guardJob != nil, waiting.isEmpty {
                out.line(1, "rules:")
                out.line(2, "- if: \(YAMLWriter.scalar("$CI_PIPELINE_SOURCE != \"schedule\""))")
            }
            if job.runner.system != "macos" {
                out.line(1, "image: \(YAMLWriter.scalar(Self.linuxImage))")
            } else if let image = macOSImage(of: job.runner) {
                out.line(1, "image: \(YAMLWriter.scalar(image))")
            }
            let tags = tags(of: job.runner)
            if !tags.isEmpty {
                out.line(1, "tags:")
                for tag in tags { out.line(2, "- \(YAMLWriter.scalar(tag))") }
            }
            if !waiting.isEmpty { writeRules(resumes: job.resumes, into: &out) }
            if job.ancestors.isEmpty {
                out.line(1, "needs: []")
            } else {
                out.line(1, "needs:")
                for ancestor in job.ancestors {
                    out.line(2, "- job: \(ancestor)")
                    out.line(3, "artifacts: \(job.inherits.contains(ancestor) ? "true" : "false")")
                    // A resume pipeline runs the waiting job alone, from its archive.
                    if job.resumes { out.line(3, "optional: true") }
                }
            }
            if !job.secrets.isEmpty {
                out.line(1, "environment:")
                out.line(2, "name: \(YAMLWriter.scalar(Self.environment(of: job.id)))")
                out.line(2, "action: prepare")
            }
            out.line(1, "script:")
            block(install, into: &out)
            if job.resumes { block(resumeLines(job), into: &out) }
            if !job.inherits.isEmpty { block(WorkflowState.restore(ancestors: job.inherits, temporary: Self.temporary), into: &out) }
            if job.handsOnState { block(WorkflowState.before(temporary: Self.temporary), into: &out) }
            if job.resumes { block(WorkflowResume.before(job: job.id, temporary: Self.temporary), into: &out) }
            out.line(2, "- \(YAMLWriter.scalar(model.command(of: job, temporary: Self.temporary)))")
            if job.handsOnState { block(WorkflowState.record(job: job.id, temporary: Self.temporary), into: &out) }
            if job.resumes {
                let key = "\"${RELEASE_JOURNAL_KEY:-gitlab:$CI_PROJECT_ID:$CI_PIPELINE_ID}\""
                block(WorkflowResume.save(job: job.id, paths: job.waitingPaths, temporary: Self.temporary, key: key), into: &out)
            }
            if job.handsOnState || job.resumes {
                out.line(1, "artifacts:")
                out.line(2, "paths:")
                let paths = (job.handsOnState ? job.statePaths : []) + (job.resumes ? [WorkflowResume.folder + "/"] : [])
                for path in paths { out.line(3, "- \(YAMLWriter.scalar(path))") }
                out.line(2, "expire_in: \(Self.expireIn)")
            }
        }
        if !waiting.isEmpty { writeOpenReleases(waiting, sharingSchedulesWithGuard: guardJob != nil, into: &out) }
        if let guardJob { writeGuardJob(guardJob, sharingSchedulesWithResumes: !waiting.isEmpty, into: &out) }
        return out.text
    }

    /// One script item: a `|` block of `lines`.
    func block(_ lines: [String], into out: inout YAMLWriter) {
        out.line(2, "- |")
        for line in lines { out.line(3, line) }
    }

    /// The script item that puts `release` on the PATH (``ToolInstall``).
    var install: [String] { model.tool.script(on: Self.host) }

    /// A branch glob (`release/*`, `hotfix/*`) as the body of a GitLab regular expression matching the whole name: `*`
    /// (or `**`) any run of characters, `?` one, everything else literal (`/` escaped, since it closes the expression).
    /// A glob ending in `*` is a prefix, and reads as one: `release/*` is `^release\/`.
    static func regex(_ glob: String) -> String {
        var body = glob
        while body.contains("**") { body = body.replacingOccurrences(of: "**", with: "*") }
        let prefix = body.hasSuffix("*")
        if prefix { body.removeLast() }
        var out = "^"
        for character in body {
            switch character {
            case "*": out += ".*"
            case "?": out += "."
            case "/": out += "\\/"
            case _ where "\\^$.|+()[]{}".contains(character): out += "\\" + String(character)
            default:
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && $0.isASCII }) {
                    out.append(character)
                } else {
                    for scalar in character.unicodeScalars { out += String(format: "\\x{%X}", scalar.value) }
                }
            }
        }
        return prefix ? out : out + "$"
    }
}
