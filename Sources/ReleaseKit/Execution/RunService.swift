import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport

/// `release run`'s planning, which the command calls before it starts the engine: the plan for the options and,
/// with `--resume`, the unfinished run it continues (its journal), planned again with that run's clock and finished
/// steps so tags and names built from `${now:…}` match and finished steps are carried over.
package enum RunService {
    /// A plan ready to run.
    package struct Planned: Sendable {
        /// What to run.
        package var plan: Plan
        /// The journal of the run `--resume` continues; nil when not resuming or when there is none.
        package var journal: RunJournal?
        /// The options planned with (with `--resume`, the first run's clock and finished steps).
        package var options: RunOptions
        /// For standard error: `--resume` found no unfinished run and runs from the start.
        package var notice: String?
    }

    /// Plans `validated` with `options`, then, when `options.resume` finds the journal of an unfinished run of the
    /// same pipeline and profile, plans again from it.
    /// - Throws: ``UsageError`` for an unknown `--profile` or `--only` step; ``RunJournalError`` for a journal that
    ///   is refused (edited, or signed with another key: ``RunJournalKey``); what planning throws.
    package static func plan(_ validated: ValidatedPipeline, options: RunOptions, masker: SecretMasker) async throws -> Planned {
        var options = options
        let plan = try await Planner().plan(validated, options: options, masker: masker)
        try refuseBumpWithoutBuild(plan)
        guard options.resume else { return Planned(plan: plan, journal: nil, options: options, notice: nil) }
        let file = validated.definition.file
        let directory = options.workingDirectory
        let path = RunJournal.path(for: file, in: directory, only: options.only)
        let key = RunJournalKey.resolve(environment: options.environment)
        guard let journal = try RunJournal.load(path: path, pipeline: file, profile: plan.profile, workspace: directory, key: key) else {
            let what = options.only.isEmpty ? "every step" : "the selected steps and what they need"
            return Planned(
                plan: plan, journal: nil, options: options,
                notice: "resume: no unfinished run of \(file) with profile '\(plan.profile ?? "none")'; running \(what)")
        }
        if let mismatch = journal.mismatch(head: plan.git.sha) {
            return Planned(plan: plan, journal: nil, options: options, notice: "resume: \(mismatch); running every step again")
        }
        // The resumed run keeps the first run's clock, so tags and names built from ${now:…} match.
        options.now = journal.now
        options.journaled = journal.steps
        return Planned(
            plan: try await Planner().plan(validated, options: options, masker: masker), journal: journal, options: options,
            notice: nil)
    }

    /// The step kinds that make the build a release records.
    static let buildKinds: Set<String> = [XcodeArchiveStep.kind, XcodeExportStep.kind]
    /// The step kinds that record or publish a build in git.
    static let recordKinds: Set<String> = [GitCommitStep.kind, GitTagStep.kind, GitPushStep.kind]

    /// Refuses a whole real run whose builds cannot run on this system while its git steps would still commit, tag or
    /// push: that would ship a bump with no build (a plain `release run` on Linux). A dry run shows it, and a run with
    /// `--only` is one job of several (an exported workflow builds in another).
    /// - Throws: ``UsageError`` naming the steps, the system they need and what to run instead.
    static func refuseBumpWithoutBuild(_ plan: Plan) throws {
        guard !plan.options.dryRun, plan.options.only.isEmpty else { return }
        let builds = plan.steps.filter { buildKinds.contains($0.kind.kind) && $0.otherSystem != nil }
        let records = plan.steps.filter { recordKinds.contains($0.kind.kind) && $0.willRun }
        guard let system = builds.first?.otherSystem, !records.isEmpty else { return }
        func names(_ steps: [PlannedStep]) -> String { steps.map { "'\($0.id)'" }.joined(separator: ", ") }
        throw UsageError(
            "this run cannot build here: \(names(builds)) run on \(system) only and this is \(plan.options.os), but \(names(records)) would still commit, tag or push: a bump with no build. Run it on a \(system) runner (release export makes the jobs), or see what it would do with 'release run --dry-run --os \(system)'"
        )
    }
}
