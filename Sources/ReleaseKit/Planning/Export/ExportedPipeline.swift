import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// A pipeline as an exported CI configuration sees it, whatever the engine: the jobs of a ``WorkflowPartition`` with
/// their runners, `needs`, secrets, variables and the state each hands on, the rollout guard's scheduled job, the
/// branches that trigger a release, and where the jobs get `release` (``ToolInstall``). Built once from the pipeline
/// and the export's arguments; ``GitHubActionsWorkflow`` and ``GitLabCIPipeline`` only render it, and another engine
/// would be one more renderer.
///
/// What a step contributes is declared by the step: the secrets and variables its options reference, the paths its
/// options say it creates (what travels to later jobs), and its kind's ``ExportTraits`` (a Mac, writes to the
/// repository, waits on Apple, published files, undeclared files).
///
/// What starts what, in every engine: a push to one of ``branches`` and a manual run start the release jobs; with
/// ``waitingJobs``, a schedule, a manual resume and a webhook relay start the run that resumes them
/// (``WorkflowResume``); with ``rolloutGuard``, its schedule starts its job alone. Each renderer says so in its engine's
/// terms (GitHub's `on:` and `if:`, GitLab's `workflow: rules:` and job `rules:`), and picks what only it has (GitLab's
/// images and runner tags, GitHub's permissions and artifact actions).
///
/// The model is a function of the pipeline and the arguments alone: the same pipeline exports the same bytes, from any
/// folder.
package struct ExportedPipeline: Sendable {
    package let pipeline: ValidatedPipeline
    /// The pipeline as the jobs' `release run` names it, relative to the repository's top.
    package let pipelinePath: String
    /// `--profile`: passed to every run, and the only profile whose branches trigger a release.
    package let profile: String?
    /// The command that regenerates the file, for the header.
    package let command: String
    /// Where the jobs get `release`.
    package let tool: ToolInstall
    /// Whether the jobs that publish files attest their provenance (`attest: true`, `--attest`).
    package let attest: Bool
    package let partition: WorkflowPartition
    /// The release jobs, in an order where each comes after those it waits for.
    package let jobs: [ExportedJob]
    /// The rollout guard's job, when the pipeline has a guard.
    package let rolloutGuard: ExportedGuardJob?
    /// The branch patterns of the profiles' `when` (only `--profile`'s when given) that trigger a release, as the
    /// pipeline writes them.
    package let branches: [String]
    /// The configuration variables (not secrets) any step reads, sorted.
    package let variables: [String]

    /// - Throws: ``UsageError`` for an unknown profile, a created path a later job needs that cannot travel, an
    ///   attested path holding a line break, or a download source without the digest of a platform a job runs on.
    package init(
        pipeline: ValidatedPipeline, pipelinePath: String, profile: String?, command: String,
        tool: ToolSource, attest: Bool = false
    ) throws {
        if let profile, !pipeline.definition.profiles.contains(where: { $0.name == profile }) {
            let names = pipeline.definition.profiles.map(\.name)
            throw UsageError(
                "unknown profile '\(profile)'" + Suggestion.hint(for: profile, in: names)
                    + (names.isEmpty ? "; \(pipeline.definition.file) defines no profiles" : "; profiles: \(names.joined(separator: ", "))"))
        }
        let files = ExportedFiles(pipeline: pipeline, profile: profile)
        let partition = WorkflowPartition(pipeline)
        let attest = attest || pipeline.definition.attest
        if let problem = files.untravellable(in: partition).first { throw UsageError(problem) }
        let references = ExportedReferences(pipeline)
        let jobs = Self.jobs(of: partition, pipeline: pipeline, references: references, files: files, attest: attest)
        // `subject-path` takes one path per line: a path holding a line break would name two subjects.
        if attest, let path = jobs.flatMap(\.attestedFiles).first(where: { $0.contains(where: \.isNewline) }) {
            throw UsageError("asset path '\(Echo.text(path))' holds a line break: it would become two attestation subjects (subject-path takes one path per line); rename the file")
        }
        if case .download(_, let version, let sha256) = tool, !sha256.isEmpty {
            let systems = Set(partition.jobs.map { $0.runner.system ?? "linux" })
            if systems.contains("macos"), sha256["darwin-universal"] == nil {
                throw UsageError("release \(version) has no pinned darwin-universal tarball, and a job runs on macOS")
            }
            if systems.contains("linux"), sha256["linux-x86_64"] == nil, sha256["linux-arm64"] == nil {
                throw UsageError("release \(version) has no pinned Linux tarball (linux-x86_64 or linux-arm64), and a job runs on Linux")
            }
        }
        self.pipeline = pipeline
        self.pipelinePath = pipelinePath
        self.profile = profile
        self.command = command
        self.tool = ToolInstall(tool)
        self.attest = attest
        self.partition = partition
        self.jobs = jobs
        rolloutGuard = RolloutGuardJob(pipeline).map { job in
            // What the guards and the steps they need read: `--only` runs those steps too.
            let steps = job.steps.reduce(into: Set(job.steps)) { $0.formUnion(pipeline.graph.ancestors(of: $1)) }.sorted()
            let read = references.of(steps)
            return ExportedGuardJob(
                steps: job.steps, schedule: job.schedule, secrets: read.secrets.sorted(), variables: read.variables.subtracting(read.secrets).sorted())
        }
        var branches: [String] = []
        for chosen in pipeline.definition.profiles where profile == nil || chosen.name == profile {
            for pattern in chosen.when.map(Self.branchPatterns) ?? [] where !branches.contains(pattern) { branches.append(pattern) }
        }
        self.branches = branches
        let all = references.of(pipeline.definition.steps.map(\.id))
        variables = all.variables.subtracting(all.secrets).sorted()
    }

    /// The jobs that may end waiting on Apple (``ExportedJob/resumes``).
    package var waitingJobs: [ExportedJob] { jobs.filter(\.resumes) }

    /// The job `id`.
    package func job(_ id: String) -> ExportedJob? { jobs.first { $0.id == id } }

    /// The command `job` runs: its steps (``ExportedJob/runs``) with `release run --resume --only …`, the pipeline
    /// path and the profile as environment variables (`RELEASE_PIPELINE`, `RELEASE_PROFILE`), never pasted in (step ids
    /// are words of [a-z0-9-_]); a job that may wait writes the run report to `temporary` (a shell word), for the
    /// lines after it to see whether a step waits (``WorkflowResume``).
    package func command(of job: ExportedJob, temporary: String) -> String {
        var arguments = ["release", "run", "\"$RELEASE_PIPELINE\"", "--resume"]
        if profile != nil { arguments += ["--profile", "\"$RELEASE_PROFILE\""] }
        for step in job.runs { arguments += ["--only", ShellQuoting.quote(step)] }
        if job.resumes { arguments += ["--report", "\"\(WorkflowResume.report(temporary: temporary))\""] }
        return arguments.joined(separator: " ")
    }

    /// The command of the rollout guard's job: the guards with `release run --only …` (which runs the steps they need
    /// too), without `--resume`: nothing of the release's journal is there.
    package func command(of job: ExportedGuardJob) -> String {
        var arguments = ["release", "run", "\"$RELEASE_PIPELINE\""]
        if profile != nil { arguments += ["--profile", "\"$RELEASE_PROFILE\""] }
        for step in job.steps { arguments += ["--only", ShellQuoting.quote(step)] }
        return arguments.joined(separator: " ")
    }

    /// What `steps` read from the environment (``ExportedReferences``): secrets, and `${env.NAME}` without a
    /// fallback, which an engine maps from its configuration variables.
    package func references(ofSteps steps: [String]) -> (secrets: Set<String>, variables: Set<String>) {
        ExportedReferences(pipeline).of(steps)
    }

    /// What may not reach the jobs that wait for it, one line each, naming the steps: a step that may write files it
    /// does not declare (a `shell` step) and declares no path it creates, in a job a later job waits for. Tracked files
    /// it changes travel in the job's bundle; other files it writes do not.
    package var warnings: [String] {
        let jobs = partition.jobs
        var lines: [String] = []
        for job in jobs {
            let later = jobs.filter { WorkflowJob.ancestors(of: $0.id, in: jobs).contains(job.id) }.map(\.id)
            guard !later.isEmpty else { continue }
            for id in job.steps {
                guard let step = pipeline.definition.step(id), !step.always, let kind = pipeline.registry[step.uses], kind.exportTraits.writesUndeclaredFiles,
                    !kind.optionsType.declaredOptions.contains(where: { $0.declaration.createsPath && step.with[$0.key] != nil })
                else { continue }
                lines.append(
                    "step '\(id)' (job \(job.id)) declares no 'creates': of the files it writes, only tracked ones (in the job's git bundle) reach job\(later.count == 1 ? "" : "s") \(later.joined(separator: ", ")); list what later steps read in \"creates\""
                )
            }
        }
        return lines
    }

    /// The header lines that say which jobs run on macOS and why (a macOS minute costs about ten Linux ones): each macOS
    /// job with its steps and what each needs the Mac for.
    package var runnerSummary: [String] {
        let mac = jobs.filter { $0.runner.system == "macos" }
        guard !mac.isEmpty else { return ["Every job runs on Linux or the runner its steps name: no step asks for a Mac."] }
        var lines = ["macOS minutes cost about ten Linux ones: only these jobs run on a Mac, for what needs one:"]
        for job in mac {
            lines.append("  \(job.id) on \(job.runner): " + zip(job.steps, job.runnerReasons).map { "\($0) (\($1))" }.joined(separator: ", "))
        }
        let others = jobs.filter { $0.runner.system != "macos" }
        if !others.isEmpty {
            lines.append("Every other job (\(others.map(\.id).joined(separator: ", "))) runs on \(Set(others.map(\.runner.description)).sorted().joined(separator: ", ")).")
        }
        return lines
    }

    // MARK: Building

    private static func jobs(
        of partition: WorkflowPartition, pipeline: ValidatedPipeline, references: ExportedReferences, files: ExportedFiles, attest: Bool
    ) -> [ExportedJob] {
        let all = partition.jobs
        let needed = Set(all.flatMap(\.needs))
        let statePaths = Dictionary(uniqueKeysWithValues: all.map { ($0.id, files.state(of: $0)) })
        return all.map { job in
            let runs = job.steps + partition.everyJob
            let ancestors = WorkflowJob.ancestors(of: job.id, in: all)
            // Secrets: the job's own steps only. Configuration variables: those steps' and the ones they take from the
            // journal (whose fingerprints read them; a fingerprint reads a secret's name, never its value).
            let ancestorSteps = runs.reduce(into: Set<String>()) { $0.formUnion(pipeline.graph.ancestors(of: $1)) }
            let own = references.of(runs)
            let carried = references.of(runs + ancestorSteps.sorted())
            var waitingPaths: [String] = []
            for other in all where ancestors.contains(other.id) || other.id == job.id {
                for path in statePaths[other.id] ?? [] where !waitingPaths.contains(path) { waitingPaths.append(path) }
            }
            let kinds = runs.map { id in pipeline.definition.step(id).flatMap { pipeline.registry[$0.uses] } }
            return ExportedJob(
                id: job.id, runner: job.runner, steps: job.steps, runs: runs, needs: job.needs, ancestors: ancestors,
                inherits: ancestors.filter(needed.contains), handsOnState: needed.contains(job.id),
                resumes: job.steps.contains { id in
                    pipeline.definition.step(id).flatMap { pipeline.registry[$0.uses] }?.exportTraits.waitsOnApple == true
                },
                secrets: own.secrets.sorted(), variables: carried.variables.subtracting(carried.secrets).sorted(),
                writesRepository: kinds.contains { $0?.exportTraits.writesRepository == true } || own.secrets.contains("GITHUB_TOKEN"),
                attestedFiles: attest ? files.published(bySteps: job.steps) : [], statePaths: statePaths[job.id] ?? [],
                waitingPaths: waitingPaths, runnerReasons: job.steps.map { runnerReason(of: $0, in: pipeline) })
        }
    }

    /// Why a step runs on its runner, in a few words: what its kind says (``ExportTraits/Runner``), else what its
    /// pipeline entry says.
    private static func runnerReason(of id: String, in pipeline: ValidatedPipeline) -> String {
        guard let step = pipeline.definition.step(id) else { return "runs_on" }
        switch pipeline.registry[step.uses]?.exportTraits.runner ?? .unstated {
        case .macOS(let reason): return reason
        case .anywhere: return "runs_on says so; it runs anywhere"
        case .unstated:
            if step.when?.systems == ["macos"] { return "when: os macos" }
            return "runs_on \(step.runner)"
        }
    }

    private static func branchPatterns(_ condition: Condition) -> [String] {
        switch condition {
        case .branch(let patterns): return patterns
        case .all(let conditions), .any(let conditions): return conditions.flatMap(branchPatterns)
        case .profile, .env, .os, .not: return []
        }
    }
}
