import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport

/// `release run`'s whole flow once the command line is parsed: load the pipeline, start the stand-ins of
/// `--rehearse`, take the checkout, plan (with `--resume`, the unfinished run it continues, planned again with that
/// run's clock and finished steps so tags and names built from `${now:…}` match), run the engine, then say what the
/// run left and write its report. The command only turns its arguments into a ``Request`` and gives the terminal,
/// the reporter, the stand-ins and the interrupt handler.
package struct RunService: Sendable {
    /// What the command line asked for (`release run`'s options).
    package struct Request: Sendable {
        /// A pipeline file or name; nil: the default.
        package var pipeline: String?
        package var profile: String?
        /// `--var` values, by name.
        package var variables: [String: String]
        /// `--var` as written, in order, for the command that resumes the run.
        package var variableArguments: [String]
        /// `--os`: evaluate `when: {os}` as on this system.
        package var os: String?
        package var dryRun: Bool
        /// How many steps may run at once; nil: the number of cores.
        package var jobs: Int?
        package var only: [String]
        package var resume: Bool
        package var keepGoing: Bool
        /// Where to write the run report; nil: none.
        package var report: String?
        /// Replace every remote service with local stand-ins.
        package var rehearse: Bool
        /// Where the stand-ins keep their state; nil: their default.
        package var rehearsalStorage: String?

        package init(
            pipeline: String? = nil, profile: String? = nil, variables: [String: String] = [:], variableArguments: [String] = [],
            os: String? = nil, dryRun: Bool = false, jobs: Int? = nil, only: [String] = [], resume: Bool = false,
            keepGoing: Bool = false, report: String? = nil, rehearse: Bool = false, rehearsalStorage: String? = nil
        ) {
            self.pipeline = pipeline
            self.profile = profile
            self.variables = variables
            self.variableArguments = variableArguments
            self.os = os
            self.dryRun = dryRun
            self.jobs = jobs
            self.only = only
            self.resume = resume
            self.keepGoing = keepGoing
            self.report = report
            self.rehearse = rehearse
            self.rehearsalStorage = rehearsalStorage
        }

        /// The command line that resumes this run: the same pipeline, profile (the one chosen, named so the journal
        /// matches), variables, `--os`, `--only` and `--rehearse`, with `--resume`.
        package func resumeArguments(profile: String?) -> [String] {
            var arguments = ["release", "run"]
            if let pipeline { arguments.append(pipeline) }
            if let profile { arguments += ["--profile", profile] }
            for variable in variableArguments { arguments += ["--var", variable] }
            if let os { arguments += ["--os", os] }
            for step in only { arguments += ["--only", step] }
            if rehearse { arguments.append("--rehearse") }
            if let rehearsalStorage { arguments += ["--rehearsal-storage", rehearsalStorage] }
            return arguments + ["--resume"]
        }
    }

    /// The folder the command runs in.
    package let directory: String
    package let environment: [String: String]
    package let console: any CommandConsole
    /// The stand-ins of `--rehearse` and the placeholders of a dry run (the Rehearsal module's, above this one).
    package let standIns: any RunStandInProvider
    /// The reporter of the run's events (`--log-format`), given the run's masker.
    package let reporter: @Sendable (SecretMasker) -> any RunReporter
    /// Called with the engine just before it runs, so interrupts reach it.
    package let started: @Sendable (Engine) -> Void

    package init(
        directory: String, environment: [String: String], console: any CommandConsole, standIns: any RunStandInProvider,
        reporter: @escaping @Sendable (SecretMasker) -> any RunReporter, started: @escaping @Sendable (Engine) -> Void = { _ in }
    ) {
        self.directory = directory
        self.environment = environment
        self.console = console
        self.standIns = standIns
        self.reporter = reporter
        self.started = started
    }

    /// The team the pipeline signs for, which the rehearsal's App Store Connect plays: its `team` variable (`--var
    /// team=…` first) when that is a team ID, as the starters write it.
    static func rehearsalTeam(_ definition: PipelineDefinition, _ variables: [String: String]) -> String? {
        let team = variables["team"] ?? definition.variables.first { $0.name == "team" }?.value
        return team.flatMap { RepositoryInspection.isTeamID($0) ? $0 : nil }
    }

    /// Runs the pipeline.
    /// - Throws: ``CommandFailure``: an invalid pipeline (65), a bad `--profile` or `--only` (64), stand-ins or a
    ///   checkout lock that cannot be had (1), what planning throws, or ``CommandFailure/Cause/reported`` with the
    ///   run's exit code (1, 2, 130) when it did not succeed (its summary already said why).
    package func run(_ request: Request) async throws(CommandFailure) {
        let validated = try await PipelineLoader.load(
            request.pipeline, extraVariables: Set(request.variables.keys), directory: directory, environment: environment)
        let masker = SecretMasker()
        var options = RunOptions(
            workingDirectory: directory, environment: environment, profile: request.profile, variables: request.variables,
            dryRun: request.dryRun, only: request.only, resume: request.resume, keepGoing: request.keepGoing)
        if let jobs = request.jobs { options.jobs = jobs }
        if let os = request.os { options.os = os }
        let secrets = Planner.secretNames(in: validated.definition)
        var rehearsal: (any RunStandIns)?
        if request.rehearse {
            do {
                rehearsal = try standIns.start(
                    storage: request.rehearsalStorage, directory: directory, environment: options.environment, secrets: secrets,
                    teamID: Self.rehearsalTeam(validated.definition, options.variables))
            } catch {
                throw .failed("cannot start the rehearsal server: \(error)")
            }
            options.environment = rehearsal!.environment
            options.endpoints = ServiceEndpoints(overrides: rehearsal!.endpoints, isolated: true)
            // A step refusing a placeholder (a certificate file) says what it stands for.
            options.placeholderSecrets = Set(rehearsal!.opaquePlaceholderSecrets)
        }
        defer { rehearsal?.stop() }
        // A dry run sends nothing: secrets this machine lacks get masked placeholders so every step shows what it
        // would do; the header says which, since a real run needs them.
        var dryRunPlaceholders: [String] = []
        if request.dryRun, rehearsal == nil {
            dryRunPlaceholders = standIns.fillPlaceholders(&options.environment, secrets: secrets)
            options.placeholderSecrets = Set(dryRunPlaceholders)
        }
        // One real run per checkout at a time, and none before what a killed one left is cleaned up. A dry run
        // changes nothing and needs no lock.
        var checkout: CheckoutRecovery.Session?
        if !request.dryRun {
            do {
                checkout = try await CheckoutRecovery.begin(in: directory, command: "release run")
            } catch let error as CheckoutLockError {
                throw .failed("\(error)")
            } catch {
                throw CommandFailure(code: ExitCodes.stepFailed, cause: .underlying(error))
            }
            for note in checkout!.notes { console.write("note: \(note)\n") }
        }
        defer { checkout?.lock.release() }
        let planned: Planned
        do {
            planned = try await Self.plan(validated, options: options, masker: masker)
        } catch {
            throw .from(error)
        }
        if let notice = planned.notice { console.write(notice + "\n") }
        let plan = planned.plan
        let reporter = reporter(masker)
        let events = !(reporter is JSONLinesReporter)
        if let rehearsal, events { console.write(rehearsal.header()) }
        // Everything this run lacks, before the first step: one round trip to fix them all.
        let unset = request.dryRun || rehearsal != nil ? [] : plan.unsetValues
        if !unset.isEmpty, events {
            console.write("not set for this run: \(ResolutionError.notSet(unset))\n")
        }
        if !dryRunPlaceholders.isEmpty, events {
            console.write(
                "dry run: placeholder values (masked) for secrets not set here: \(dryRunPlaceholders.joined(separator: ", ")); a real run needs them\n")
        }
        let engine = Engine(plan: plan, reporter: reporter, masker: masker, journal: planned.journal)
        started(engine)
        let result = await engine.run()
        if let rehearsal {
            // With JSON events, standard output holds events alone: the summary is one more.
            if let json = reporter as? JSONLinesReporter {
                json.emit(rehearsal.summaryFields().merging(["event": "rehearsal_finished"]) { first, _ in first })
            } else {
                console.write("\n" + masker.mask(rehearsal.summary()))
            }
        }
        // A run that did not finish ends with what it left changed and how to resume it, on standard error in every
        // log format (JSON events keep standard output, and their run report already lists each step's outputs).
        if let aftermath = RunAftermath(result, resumeCommand: request.resumeArguments(profile: plan.profile), workingDirectory: directory) {
            console.write("\n" + masker.mask(aftermath.text))
        }
        var exitCode = result.exitCode
        if let report = request.report {
            do {
                try RunReport.write(result, to: report, masker: masker)
            } catch {
                console.write("error: cannot write the report '\(report)': \(error)\n")
                // The run did its work but what was asked for is missing: not a success.
                if exitCode == ExitCodes.success { exitCode = ExitCodes.stepFailed }
            }
        }
        if exitCode != ExitCodes.success { throw CommandFailure(code: exitCode, cause: .reported) }
    }

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
