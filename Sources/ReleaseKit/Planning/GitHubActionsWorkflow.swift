import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// A pipeline exported as a GitHub Actions workflow (`release export github-actions`): the jobs of a
/// ``WorkflowPartition``, each running its steps with `release run PIPELINE --resume --only …` on its runner.
///
/// What each job does, in order: check out the repository (full history, for tags and commit counts); install
/// `release` from its ``ToolSource`` (by default the packaged tarball of this version, its SHA-256 pinned in the
/// workflow and checked before it runs); download the state every job it waits for left (the run journal, the
/// folders their steps create, and a git bundle of the commits they made and the tracked files they changed, such as
/// the bump and its commit: ``WorkflowState``) and start from the latest; run its steps; record its own commits and
/// changes in a bundle and upload its state when a later job needs it. `--resume` takes the steps other jobs ran from the journal, checking each artifact's SHA-256.
///
/// Least privilege: a job's run step gets, as `${{ secrets.NAME }}` environment variables, only the secrets its own
/// steps use (steps taken from the journal are checked by fingerprint, which never needs a secret); each job has its
/// own `permissions:` (`contents: read`, `write` only where a release, tag or push is made, `id-token` and
/// `attestations` only where provenance is attested). Triggers mirror the profiles: a push to a branch a profile's
/// `when` names, and `workflow_dispatch`. One concurrency group per ref keeps two releases of one branch from racing.
/// Untrusted context reaches the run only through `env:`. The text is a function of the pipeline and the arguments
/// alone: the same pipeline exports the same bytes, from any folder.
package struct GitHubActionsWorkflow: Sendable {
    /// The artifact a job's state travels in.
    package static func stateArtifact(of job: String) -> String { "release-state-\(job)" }
    /// Where a job leaves the bundle of its commits and changes to tracked files, for the jobs after it
    /// (``WorkflowState``).
    package static let changesFolder = WorkflowState.folder

    package let pipeline: ValidatedPipeline
    /// The pipeline as the workflow's `release run` names it, relative to the repository's top.
    package let pipelinePath: String
    /// `--profile`: passed to every run, and the only profile whose branches trigger the workflow.
    package let profile: String?
    /// The command that regenerates the file, for the header.
    package let command: String
    package let partition: WorkflowPartition
    /// Where the jobs get `release`.
    package let tool: ToolSource
    /// Whether the jobs that publish assets attest their provenance (`attest: true`, `--attest`).
    package let attest: Bool

    /// - Throws: ``UsageError`` for an unknown profile, or a download source without the digest of a platform a job
    ///   runs on.
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
        self.pipeline = pipeline
        self.pipelinePath = pipelinePath
        self.profile = profile
        self.command = command
        self.partition = WorkflowPartition(pipeline)
        self.tool = tool
        self.attest = attest || pipeline.definition.attest
        if let problem = untravellablePaths().first { throw UsageError(problem) }
        // `subject-path` takes one path per line: a path holding a line break would name two subjects.
        if self.attest, let path = partition.jobs.flatMap({ attestedFiles(ofSteps: $0.steps) }).first(where: { $0.contains(where: \.isNewline) }) {
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
    }

    /// The workflow file.
    package var text: String {
        let definition = pipeline.definition
        var out = YAMLWriter()
        out.comment("Generated by `release export github-actions` from \(pipelinePath) (\(definition.name)); do not edit by hand.")
        out.comment("Regenerate with: \(command)")
        out.comment("")
        out.comment("Each job runs its steps of the pipeline with `release run --resume --only …` on the runner their `runs_on`")
        out.comment("names. \(toolSummary)")
        out.comment("A job hands its state to the jobs after it as an artifact: the run journal (\(JournalLocation.gitFolder)/:")
        out.comment("outputs, artifact digests, the run's clock), the folders its steps create, and a git bundle of the commits it")
        out.comment("made and the tracked files it changed (\(Self.changesFolder)/JOB.bundle: the version bump and its commit), which the")
        out.comment("next job starts from, so a tag or a push there names the bumped commit; `--resume` takes those steps from the")
        out.comment("journal, and an artifact whose SHA-256 changed on the way is an error. A job's run step gets only the secrets")
        out.comment("its own steps use, as environment variables.")
        out.comment("")
        for line in runnerSummary { out.comment(line) }
        let waiting = WorkflowResume.waitingJobs(partition, pipeline: pipeline)
        for line in resumeSummary(waiting) { out.comment(line) }
        out.line(0, "name: \(YAMLWriter.scalar(Self.staticText(definition.name)))")
        out.line(0, "on:")
        let branches = triggerBranches
        if !branches.isEmpty {
            out.line(1, "push:")
            out.line(2, "branches:")
            for branch in branches { out.line(3, "- \(YAMLWriter.scalar(Self.staticText(branch)))") }
        }
        let guardJob = RolloutGuardJob(pipeline)
        if waiting.isEmpty {
            out.line(1, "workflow_dispatch:")
            if let guardJob { writeSchedule(guardJob, into: &out) }
        } else {
            writeResumeTriggers(guardSchedule: guardJob?.schedule, into: &out)
        }
        out.line(0, "concurrency:")
        out.line(1, "group: \(YAMLWriter.scalar("release-${{ github.workflow }}-${{ github.ref }}"))")
        out.line(1, "cancel-in-progress: false")
        out.line(0, "permissions: {}")
        out.line(0, "jobs:")
        let jobs = partition.jobs
        let needed = Set(jobs.flatMap(\.needs))
        for job in jobs {
            let steps = job.steps + partition.everyJob
            let attested = attest ? attestedFiles(ofSteps: job.steps) : []
            out.line(1, "\(job.id):")
            out.line(2, "name: \(Self.literal("\(job.runner): \(job.steps.joined(separator: ", "))"))")
            out.line(2, "runs-on: \(runsOn(job))")
            // Scheduled and dispatched resumes run only the jobs that resume waiting releases; a guard's schedule runs
            // only the guard.
            if !waiting.isEmpty {
                out.line(2, "if: \(Self.releaseRunCondition)")
            } else if guardJob != nil {
                out.line(2, "if: \(YAMLWriter.scalar("github.event_name != 'schedule'"))")
            }
            if !job.needs.isEmpty {
                out.line(2, "needs: [\(job.needs.map(YAMLWriter.scalar).joined(separator: ", "))]")
            }
            out.line(2, "permissions:")
            out.line(3, "contents: \(writesContents(steps) || !attested.isEmpty ? "write" : "read")")
            if !attested.isEmpty {
                out.line(3, "id-token: write")
                out.line(3, "attestations: write")
            }
            out.line(2, "steps:")
            writeCheckout(into: &out)
            install(into: &out)
            let ancestors = WorkflowJob.ancestors(of: job.id, in: jobs).filter(needed.contains)
            for ancestor in ancestors {
                out.line(3, "- name: \(Self.literal("Download the state of job \(ancestor)"))")
                out.line(4, "uses: actions/download-artifact@v7")
                out.line(4, "with:")
                out.line(5, "name: \(Self.stateArtifact(of: ancestor))")
                out.line(5, "path: \(Self.literal(root(of: uploadPaths(of: jobs.first { $0.id == ancestor }!))))")
            }
            if !ancestors.isEmpty {
                // Job ids are words of [a-z0-9-]: safe in the script as they are.
                out.line(3, "- name: Start from the commits and changes earlier jobs made")
                out.line(4, "shell: bash")
                out.line(4, "run: |")
                for line in ["set -euo pipefail"] + WorkflowState.restore(ancestors: ancestors, temporary: "$RUNNER_TEMP", annotation: "::error::") {
                    out.line(5, line)
                }
            }
            if needed.contains(job.id) {
                out.line(3, "- name: Note the repository before the run")
                out.line(4, "shell: bash")
                out.line(4, "run: |")
                for line in ["set -euo pipefail"] + WorkflowState.before(temporary: "$RUNNER_TEMP") { out.line(5, line) }
            }
            let waits = waiting.contains(job)
            if waits { writeBeforeWaiting(job, into: &out) }
            writeRun(job, into: &out, report: waits)
            if waits { writeAfterWaiting(job, into: &out) }
            if !attested.isEmpty {
                out.line(3, "- name: Attest the provenance of the published files")
                out.line(4, "uses: actions/attest-build-provenance@v3")
                out.line(4, "with:")
                writePaths(attested.map(Self.escapingExpressions), key: "subject-path", level: 5, into: &out)
            }
            if needed.contains(job.id) {
                out.line(3, "- name: Record the commits and changes for later jobs")
                out.line(4, "shell: bash")
                out.line(4, "run: |")
                for line in ["set -euo pipefail"] + WorkflowState.record(job: job.id, temporary: "$RUNNER_TEMP") { out.line(5, line) }
                out.line(3, "- name: Upload the state for later jobs")
                out.line(4, "uses: actions/upload-artifact@v6")
                out.line(4, "with:")
                out.line(5, "name: \(Self.stateArtifact(of: job.id))")
                writePaths(uploadPaths(of: job).map(Self.escapingExpressions), key: "path", level: 5, into: &out)
                out.line(5, "include-hidden-files: true")
                out.line(5, "if-no-files-found: error")
                out.line(5, "overwrite: true")
            }
        }
        if !waiting.isEmpty { writeResumeJobs(waiting, sharingScheduleWith: guardJob?.schedule, into: &out) }
        if let guardJob { writeGuardJob(guardJob, sharingScheduleWith: waiting.isEmpty ? nil : Self.resumeSchedule, into: &out) }
        return out.text
    }

    /// The header lines that say which jobs run on macOS and why (a macOS minute costs about ten Linux ones): each macOS
    /// job with its steps and what each needs the Mac for, for ``GitHubActionsWorkflow`` and ``GitLabCIPipeline``.
    var runnerSummary: [String] {
        let mac = partition.jobs.filter { $0.runner.system == "macos" }
        guard !mac.isEmpty else { return ["Every job runs on Linux or the runner its steps name: no step asks for a Mac."] }
        var lines = ["macOS minutes cost about ten Linux ones: only these jobs run on a Mac, for what needs one:"]
        for job in mac {
            lines.append("  \(job.id) on \(job.runner): " + job.steps.map { "\($0) (\(macReason(of: $0)))" }.joined(separator: ", "))
        }
        let others = partition.jobs.filter { $0.runner.system != "macos" }
        if !others.isEmpty {
            lines.append("Every other job (\(others.map(\.id).joined(separator: ", "))) runs on \(Set(others.map(\.runner.description)).sorted().joined(separator: ", ")).")
        }
        return lines
    }

    /// Why a step runs on a Mac, in a few words: what its kind needs there, else what its pipeline entry says.
    func macReason(of id: String) -> String {
        guard let step = pipeline.definition.step(id) else { return "runs_on" }
        switch step.uses {
        case "xcode.archive", "xcode.export": return "Xcode"
        case "signing.keychain", "signing.profile", "signing.sync": return "signs into the Mac's keychain"
        case "appstore.validate": return "Apple's validation, in Xcode"
        case "gate.archive", "gate.ipa", "gate.dsym", "dsym.package", "archive.zip", "notes", "version.read", "version.bump", "itmsp.package":
            return "runs_on says so; it runs anywhere"
        default:
            if step.when?.systems == ["macos"] { return "when: os macos" }
            return "runs_on \(step.runner)"
        }
    }

    /// `runs-on` of `job`: its label, or its labels as a flow sequence.
    func runsOn(_ job: WorkflowJob) -> String {
        job.runner.labels.count == 1 ? Self.literal(job.runner.labels[0]) : "[" + job.runner.labels.map(Self.literal).joined(separator: ", ") + "]"
    }

    /// The step that runs `job`'s steps (and the steps every job ends with) with `release run --resume --only …`, with
    /// the secrets and configuration variables they use; `report` writes the run report a waiting job reads.
    func writeRun(_ job: WorkflowJob, into out: inout YAMLWriter, report: Bool = false) {
        let steps = job.steps + partition.everyJob
        // The pipeline path and the profile reach the command as environment variables, never pasted into `run:`
        // (GitHub's advice for values it does not write itself); step ids are words of [a-z0-9-_].
        var arguments = ["release", "run", "\"$RELEASE_PIPELINE\"", "--resume"]
        if profile != nil { arguments += ["--profile", "\"$RELEASE_PROFILE\""] }
        for step in steps { arguments += ["--only", ShellQuoting.quote(step)] }
        if report { arguments += ["--report", "\"\(WorkflowResume.report(temporary: "$RUNNER_TEMP"))\""] }
        out.line(3, "- name: \(Self.literal("Run " + job.steps.joined(separator: ", ")))")
        out.line(4, "id: release-run")
        out.line(4, "run: \(YAMLWriter.scalar(arguments.joined(separator: " ")))")
        // Secrets: the job's own steps only. Configuration variables: those steps' and the ones they take from the
        // journal (whose fingerprints read them; a fingerprint reads a secret's name, never its value).
        let ancestorSteps = steps.reduce(into: Set<String>()) { $0.formUnion(pipeline.graph.ancestors(of: $1)) }
        let own = references(ofSteps: steps)
        let carried = references(ofSteps: steps + ancestorSteps.sorted())
        out.line(4, "env:")
        var entries = [("RELEASE_PIPELINE", Self.literal(pipelinePath))] + (profile.map { [("RELEASE_PROFILE", Self.literal($0))] } ?? [])
        var mapped = own.secrets.map { ($0, "${{ secrets.\($0) }}") }
        mapped += carried.variables.subtracting(carried.secrets).map { ($0, "${{ vars.\($0) }}") }
        entries += mapped.filter { !["RELEASE_PIPELINE", "RELEASE_PROFILE"].contains($0.0) }.sorted(by: { $0.0 < $1.0 }).map { ($0.0, YAMLWriter.scalar($0.1)) }
        for (name, value) in entries { out.line(5, "\(name): \(value)") }
    }

    /// What may not reach the jobs that wait for it, one line each, naming the steps: a `shell` step (which may write
    /// any file) that declares no `creates`, in a job a later job waits for. Tracked files it changes travel in the
    /// job's bundle; other files it writes do not.
    package var warnings: [String] {
        let jobs = partition.jobs
        var lines: [String] = []
        for job in jobs {
            let later = jobs.filter { WorkflowJob.ancestors(of: $0.id, in: jobs).contains(job.id) }.map(\.id)
            guard !later.isEmpty else { continue }
            for id in job.steps {
                guard let step = pipeline.definition.step(id), !step.always, step.uses == "shell", step.with["creates"] == nil else { continue }
                lines.append(
                    "step '\(id)' (job \(job.id)) declares no 'creates': of the files it writes, only tracked ones (in the job's git bundle) reach job\(later.count == 1 ? "" : "s") \(later.joined(separator: ", ")); list what later steps read in \"creates\""
                )
            }
        }
        return lines
    }

    /// Paths a step of one job creates outside the workspace while a step of a later job needs that step: nothing can
    /// carry them (an artifact holds workspace files only), so the export refuses.
    func untravellablePaths() -> [String] {
        let jobs = partition.jobs
        var jobOf: [String: String] = [:]
        for job in jobs { for id in job.steps { jobOf[id] = job.id } }
        var problems: [String] = []
        for job in jobs {
            for id in job.steps {
                guard let step = pipeline.definition.step(id), let kind = pipeline.registry[step.uses] else { continue }
                let readers = pipeline.definition.steps.filter { other in
                    jobOf[other.id].map { $0 != job.id } == true && pipeline.graph.ancestors(of: other.id).contains(id)
                }
                guard let reader = readers.first else { continue }
                for option in kind.optionsType.declaredOptions where option.declaration.createsPath {
                    guard let node = step.with[option.key] else { continue }
                    forEachString(in: node, path: .root) { text, _, _ in
                        if travellingPath(text) == nil {
                            problems.append(
                                "step '\(id)' (job \(job.id)) writes '\(Echo.text(text))' outside the repository, and step '\(reader.id)' (job \(jobOf[reader.id] ?? "")) comes after it on another runner: nothing can carry that file; write it inside the repository"
                            )
                        }
                    }
                }
            }
        }
        return problems
    }

    /// `paths` under `key`: a `|` block when every path fits one, else one double-quoted scalar.
    func writePaths(_ paths: [String], key: String, level: Int, into out: inout YAMLWriter) {
        if paths.allSatisfy(Self.fitsBlock) {
            out.line(level, "\(key): |")
            for path in paths { out.line(level + 1, path) }
        } else {
            out.line(level, "\(key): \(YAMLWriter.scalar(paths.joined(separator: "\n")))")
        }
    }

    /// Step kinds that write to the repository or its releases: their job needs `contents: write`.
    static let contentWritingKinds: Set<String> = ["github.release", "git.push", "git.tag"]

    /// Whether `steps` write the repository's contents (a release, a tag, a push), or hold GitHub's token.
    func writesContents(_ steps: [String]) -> Bool {
        steps.contains { id in pipeline.definition.step(id).map { Self.contentWritingKinds.contains($0.uses) } ?? false }
            || references(ofSteps: steps).secrets.contains("GITHUB_TOKEN")
    }

    /// The files the `github.release` steps among `steps` publish, as upload-artifact globs (references known only
    /// at run time as `*`): an asset that is another step's output stands for the path that step's options create.
    func attestedFiles(ofSteps steps: [String]) -> [String] {
        var files: [String] = []
        for id in steps {
            guard let step = pipeline.definition.step(id), step.uses == "github.release", let assets = step.with["assets"] else { continue }
            forEachString(in: assets, path: .root) { text, _, path in
                if case .key(let key)? = path.components.last, key != "path" { return }
                for file in attestedPaths(of: text) where !files.contains(file) { files.append(file) }
            }
        }
        return files
    }

    private func attestedPaths(of template: String) -> [String] {
        if let parsed = try? Template(parsing: template), let whole = parsed.wholeReference, case .stepOutput(let producer, let key) = whole,
            let step = pipeline.definition.step(producer), let kind = pipeline.registry[step.uses]
        {
            let creating = kind.optionsType.declaredOptions.filter { $0.declaration.createsPath && step.with[$0.key] != nil }
            let chosen = creating.filter { $0.key == key } + (key == "path" ? creating.filter { $0.key == "output" } : [])
            let options = chosen.isEmpty && creating.count == 1 ? creating : Array(chosen.prefix(1))
            var paths: [String] = []
            for option in options {
                forEachString(in: step.with[option.key]!, path: .root) { text, _, _ in
                    let path = expand(text)
                    // A shell step's `creates` may be a folder: its files are what it made.
                    paths.append(step.uses == "shell" && !(path.split(separator: "/").last ?? "").contains(".") ? path + "/*" : path)
                }
            }
            return paths
        }
        let path = expand(template)
        return path == "*" ? [] : [path]
    }

    /// What the header says about installing `release`.
    var toolSummary: String {
        switch tool {
        case .download(let url, let version, _):
            return "`release` \(version) is the packaged tarball for the runner's platform, downloaded from \(url) and checked against the SHA-256 pinned below before it runs."
        case .homebrew(let tap, let formula):
            return "`release` is installed with Homebrew from the tap \(tap) (formula \(formula)), which pins its version."
        case .mint(let package, let version):
            return "`release` \(version) is built and installed by Mint from \(package) (~/.mint cached between runs)."
        case .swiftpm(let repository, let tag):
            return "`release` is built with SwiftPM from tag \(tag) of \(repository), cached per tag and runner."
        }
    }

    // MARK: Escaping

    /// `value` for a place where GitHub evaluates `${{ … }}` (jobs' and steps' names, `runs-on`, `env`, `with`,
    /// `run`): written as a YAML scalar with every `${{` replaced by an expression whose value is `${{`, so text from
    /// the pipeline or the command line is shown as written and never evaluated (it could read `github.event` or a
    /// secret).
    static func literal(_ value: String) -> String {
        YAMLWriter.scalar(escapingExpressions(value))
    }

    /// `value` for a static field, where GitHub allows no expression at all (the workflow's `name`): `${{` is
    /// written `$ {{`, which is not one.
    static func staticText(_ value: String) -> String {
        value.replacingOccurrences(of: "${{", with: "$ {{")
    }

    /// `value` with each `${{` written as `${{ '${{' }}`, which GitHub evaluates to the text `${{`.
    static func escapingExpressions(_ value: String) -> String {
        value.replacingOccurrences(of: "${{", with: "${{ '${{' }}")
    }

    /// Whether `line` can be a line of a `|` block scalar as it is: no character YAML would read as a line break or
    /// cannot print, and no space at its start (which would change the block's indentation) or end.
    static func fitsBlock(_ line: String) -> Bool {
        !line.isEmpty && !line.unicodeScalars.contains { YAMLWriter.escape($0) != nil }
            && line.first != " " && line.last != " "
    }

    // MARK: Parts

    /// The first step of every job: the repository with its whole history (tags, the commits a release is made of).
    func writeCheckout(into out: inout YAMLWriter) {
        out.line(3, "- name: Check out")
        out.line(4, "uses: actions/checkout@v5")
        out.line(4, "with:")
        out.line(5, "fetch-depth: 0")
    }

    /// The steps that put `release` on the PATH, from ``tool``.
    func install(into out: inout YAMLWriter) {
        switch tool {
        case .download(let url, let version, let sha256):
            out.line(3, "- name: Install release \(version)")
            out.line(4, "id: install-release")
            out.line(4, "shell: bash")
            out.line(4, "env:")
            out.line(5, "RELEASE_TOOL_URL: \(Self.literal(url))")
            out.line(4, "run: |")
            var script = ["set -euo pipefail", "case \"$(uname -s)-$(uname -m)\" in"]
            let patterns = ["darwin-universal": "Darwin-*", "linux-x86_64": "Linux-x86_64", "linux-arm64": "Linux-aarch64 | Linux-arm64"]
            for platform in ToolSource.platforms {
                guard let digest = sha256[platform] else { continue }
                script.append("  \(patterns[platform]!)) platform=\(platform) sha256=\(digest) ;;")
            }
            script += [
                "  *) echo \"::error::release \(version) has no pinned tarball for $(uname -s)-$(uname -m)\"; exit 1 ;;",
                "esac",
                "url=\"${RELEASE_TOOL_URL//\\{version\\}/\(version)}\"",
                "url=\"${url//\\{platform\\}/$platform}\"",
                "dir=\"$RUNNER_TEMP/release-\(version)-$platform\"",
                "mkdir -p \"$dir\"",
                "curl -fsSL --retry 3 -o \"$dir/release.tar.gz\" \"$url\"",
                "if command -v sha256sum >/dev/null; then actual=\"$(sha256sum \"$dir/release.tar.gz\")\"; else actual=\"$(shasum -a 256 \"$dir/release.tar.gz\")\"; fi",
                "if [ \"${actual%% *}\" != \"$sha256\" ]; then",
                "  echo \"::error::$url has SHA-256 ${actual%% *}, not the pinned $sha256\"",
                "  exit 1",
                "fi",
                "tar -xzf \"$dir/release.tar.gz\" -C \"$dir\"",
                "bin=\"$(dirname \"$(find \"$dir\" -mindepth 2 -maxdepth 2 -type f -name release | head -1)\")\"",
                "\"$bin/release\" --version",
                "echo \"$bin\" >> \"$GITHUB_PATH\"",
            ]
            for line in script { out.line(5, line) }
        case .homebrew(let tap, let formula):
            out.line(3, "- name: Install release from the Homebrew tap \(tap)")
            out.line(4, "id: install-release")
            out.line(4, "shell: bash")
            out.line(4, "run: |")
            out.line(5, "set -euo pipefail")
            out.line(
                5, "if ! command -v brew >/dev/null; then echo \"/home/linuxbrew/.linuxbrew/bin\" >> \"$GITHUB_PATH\"; export PATH=\"/home/linuxbrew/.linuxbrew/bin:$PATH\"; fi")
            out.line(5, "brew tap \(tap)")
            out.line(5, "brew install \(tap)/\(formula)")
            out.line(5, "release --version")
        case .mint(let package, let version):
            out.line(3, "- name: Cache Mint's builds")
            out.line(4, "uses: actions/cache@v5")
            out.line(4, "with:")
            out.line(5, "path: ~/.mint")
            out.line(5, "key: \(YAMLWriter.scalar("mint-\(package.replacingOccurrences(of: "/", with: "-"))-\(version)-${{ runner.os }}-${{ runner.arch }}"))")
            out.line(3, "- name: Install release \(version) with Mint")
            out.line(4, "id: install-release")
            out.line(4, "shell: bash")
            out.line(4, "run: |")
            out.line(5, "set -euo pipefail")
            out.line(5, "command -v mint >/dev/null || brew install mint")
            out.line(5, "mint install \(package)@\(version)")
            out.line(5, "echo \"$HOME/.mint/bin\" >> \"$GITHUB_PATH\"")
        case .swiftpm(let repository, let tag):
            out.line(3, "- name: Cache the build of release \(tag)")
            out.line(4, "uses: actions/cache@v5")
            out.line(4, "with:")
            out.line(5, "path: ~/.cache/release-tool/\(tag)")
            out.line(5, "key: \(YAMLWriter.scalar("release-tool-\(tag)-${{ runner.os }}-${{ runner.arch }}"))")
            out.line(3, "- name: Build release \(tag) with SwiftPM")
            out.line(4, "id: install-release")
            out.line(4, "shell: bash")
            out.line(4, "env:")
            out.line(5, "RELEASE_TOOL_REPOSITORY: \(Self.literal(repository))")
            out.line(4, "run: |")
            out.line(5, "set -euo pipefail")
            out.line(5, "dir=\"$HOME/.cache/release-tool/\(tag)\"")
            out.line(5, "if [ ! -x \"$dir/bin/release\" ]; then")
            out.line(5, "  rm -rf \"$dir\" && mkdir -p \"$dir/bin\"")
            out.line(5, "  git clone --quiet --depth 1 --branch \(tag) \"$RELEASE_TOOL_REPOSITORY\" \"$dir/source\"")
            out.line(5, "  swift build --package-path \"$dir/source\" -c release --product release")
            out.line(5, "  cp \"$(swift build --package-path \"$dir/source\" -c release --show-bin-path)/release\" \"$dir/bin/release\"")
            out.line(5, "  rm -rf \"$dir/source\"")
            out.line(5, "fi")
            out.line(5, "\"$dir/bin/release\" --version")
            out.line(5, "echo \"$dir/bin\" >> \"$GITHUB_PATH\"")
        }
    }

    /// Branch patterns of the profiles' `when` (only `--profile`'s when given), as GitHub's filters spell them:
    /// `release*` here matches `release/3.0`, which GitHub's `*` does not, so each `*` becomes `**`.
    var triggerBranches: [String] {
        let profiles = pipeline.definition.profiles.filter { profile == nil || $0.name == profile }
        var patterns: [String] = []
        for profile in profiles {
            for pattern in profile.when.map(Self.branchPatterns) ?? [] {
                let translated = pattern.replacingOccurrences(of: "**", with: "*").replacingOccurrences(of: "*", with: "**")
                if !patterns.contains(translated) { patterns.append(translated) }
            }
        }
        return patterns
    }

    /// Branch patterns of the profiles' `when` (only `--profile`'s when given), as the pipeline writes them.
    var triggerBranchGlobs: [String] {
        var patterns: [String] = []
        for chosen in pipeline.definition.profiles where profile == nil || chosen.name == profile {
            for pattern in chosen.when.map(Self.branchPatterns) ?? [] where !patterns.contains(pattern) { patterns.append(pattern) }
        }
        return patterns
    }

    private static func branchPatterns(_ condition: Condition) -> [String] {
        switch condition {
        case .branch(let patterns): return patterns
        case .all(let conditions), .any(let conditions): return conditions.flatMap(branchPatterns)
        case .profile, .env, .os, .not: return []
        }
    }

    /// What a job uploads: the journal folder, then the folder of every path its steps declare they create (the path
    /// itself when it lies at the top), with references only known at run time as `*`.
    func uploadPaths(of job: WorkflowJob) -> [String] {
        var paths = [JournalLocation.gitFolder + "/", Self.changesFolder + "/"]
        for id in job.steps {
            guard let step = pipeline.definition.step(id), let kind = pipeline.registry[step.uses] else { continue }
            for option in kind.optionsType.declaredOptions where option.declaration.createsPath {
                guard let node = step.with[option.key] else { continue }
                forEachString(in: node, path: .root) { text, _, _ in
                    guard let path = travellingPath(text) else { return }
                    if !paths.contains(path) { paths.append(path) }
                }
            }
        }
        return paths
    }

    /// Where upload-artifact roots an artifact of `paths` (so a download there puts every file back in place): the
    /// deepest folder shared by the paths' literal parts (the part before the first wildcard).
    func root(of paths: [String]) -> String {
        let literal = paths.map { path in
            path.split(separator: "/").prefix { !$0.contains("*") }.map(String.init)
        }
        guard var common = literal.first else { return "." }
        for components in literal.dropFirst() {
            common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
        }
        return common.isEmpty ? "." : common.joined(separator: "/")
    }

    /// The upload path for a created path template: its folder (so files written beside it, such as a log or a
    /// manifest, travel too), or the path when it lies at the top; nil for paths outside the workspace.
    private func travellingPath(_ template: String) -> String? {
        var path = expand(template)
        while path.hasPrefix("./") { path.removeFirst(2) }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.split(separator: "/").contains("..") else { return nil }
        let components = path.split(separator: "/").map(String.init)
        let folder = components.dropLast()
        if !folder.isEmpty, !folder.contains(where: { $0.contains("*") }) { return folder.joined(separator: "/") + "/" }
        return components.joined(separator: "/")
    }

    /// `template` with the variables known before a run substituted (the pipeline's, and `--profile`'s) and every
    /// other reference as `*`.
    private func expand(_ template: String, depth: Int = 0) -> String {
        guard Template.mayContainReferences(template), depth < 8, let parsed = try? Template(parsing: template) else { return template }
        var out = ""
        for segment in parsed.segments {
            switch segment {
            case .literal(let text): out += text
            case .reference(.variable(let name), _):
                out += knownVariables[name].map { expand($0, depth: depth + 1) } ?? "*"
            case .reference(.profile, _): out += profile ?? "*"
            case .reference: out += "*"
            }
        }
        return out.replacingOccurrences(of: "**", with: "*")
    }

    /// The pipeline's variables, with `--profile`'s over them; without `--profile`, variables a profile changes are
    /// not known.
    private var knownVariables: [String: String] {
        let definition = pipeline.definition
        var values: [String: String] = [:]
        for variable in definition.variables { values[variable.name] = variable.value }
        if let profile, let chosen = definition.profiles.first(where: { $0.name == profile }) {
            for variable in chosen.variables { values[variable.name] = variable.value }
        } else {
            for name in definition.profiles.flatMap(\.variables).map(\.name) { values[name] = nil }
        }
        return values
    }

    /// Environment variables a runner sets itself: never mapped to configuration variables.
    static func isRunnerVariable(_ name: String) -> Bool {
        name == "CI" || name.hasPrefix("GITHUB_") || name.hasPrefix("RUNNER_") || name.hasPrefix("ACTIONS_")
    }

    /// The secrets `steps` use, directly or through variables (any profile's).
    func secrets(ofSteps steps: [String]) -> Set<String> {
        references(ofSteps: steps).secrets
    }

    /// What `steps` read from the environment, directly or through variables (any profile's): secrets, which the
    /// workflow maps from `${{ secrets.NAME }}`, and `${env.NAME}` without a fallback, which it maps from the
    /// repository's configuration variables (`${{ vars.NAME }}`); with a fallback the pipeline needs nothing, and
    /// the runner's own variables (`GITHUB_*`, `RUNNER_*`, `CI`) are there anyway.
    func references(ofSteps steps: [String]) -> (secrets: Set<String>, variables: Set<String>) {
        let definition = pipeline.definition
        var variables: [String: [String]] = [:]
        for variable in definition.variables + definition.profiles.flatMap(\.variables) {
            variables[variable.name, default: []].append(variable.value)
        }
        var secrets: Set<String> = []
        var environment: Set<String> = []
        var visited: Set<String> = []
        func scan(_ text: String) {
            guard Template.mayContainReferences(text) else { return }
            for case .success(let reference) in Template.scan(text) {
                switch reference {
                case .secret(let name): secrets.insert(name)
                case .environment(let name, nil) where !Self.isRunnerVariable(name): environment.insert(name)
                case .variable(let name):
                    if visited.insert(name).inserted { (variables[name] ?? []).forEach(scan) }
                default: break
                }
            }
        }
        for id in steps {
            guard let step = definition.step(id) else { continue }
            forEachString(in: step.with, path: .root) { text, _, _ in scan(text) }
        }
        return (secrets, environment)
    }
}
