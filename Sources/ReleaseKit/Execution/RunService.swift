/// `release run`'s planning, which the command calls before it starts the engine: the plan for the options and,
/// with `--resume`, the unfinished run it continues (its journal), planned again with that run's clock and finished
/// steps so tags and names built from `${now:…}` match and finished steps are carried over.
public enum RunService {
    /// A plan ready to run.
    public struct Planned: Sendable {
        /// What to run.
        public var plan: Plan
        /// The journal of the run `--resume` continues; nil when not resuming or when there is none.
        public var journal: RunJournal?
        /// The options planned with (with `--resume`, the first run's clock and finished steps).
        public var options: RunOptions
        /// For standard error: `--resume` found no unfinished run and runs from the start.
        public var notice: String?
    }

    /// Plans `validated` with `options`, then, when `options.resume` finds the journal of an unfinished run of the
    /// same pipeline and profile, plans again from it.
    /// - Throws: ``UsageError`` for an unknown `--profile` or `--only` step; ``RunJournalError`` for a journal that
    ///   is refused (edited, or signed with another key: ``RunJournalKey``); what planning throws.
    public static func plan(_ validated: ValidatedPipeline, options: RunOptions, masker: SecretMasker) async throws -> Planned {
        var options = options
        let plan = try await Planner().plan(validated, options: options, masker: masker)
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
        // The resumed run keeps the first run's clock, so tags and names built from ${now:…} match.
        options.now = journal.now
        options.journaled = journal.steps
        return Planned(
            plan: try await Planner().plan(validated, options: options, masker: masker), journal: journal, options: options,
            notice: nil)
    }
}
