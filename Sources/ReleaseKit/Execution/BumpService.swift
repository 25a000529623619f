import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport
import ReleaseVersioning

/// What `release bump` needs from the terminal it runs on: where its lines go, the menu, the confirmation, and
/// holding off Ctrl-C while files are renamed. The executable gives the real terminal; tests record.
package protocol BumpConsole: CommandConsole {
    /// Whether a person can answer: standard input is a terminal.
    var isInteractive: Bool { get }
    /// Runs the version menu.
    func choose(_ prompt: BumpPrompt) -> BumpPromptEditor.Outcome
    /// A line typed in answer to a question, or nil at the end of input.
    func readAnswer() -> String?
    /// Runs `body` with interrupts held off, handled right after.
    func holdingOffInterrupts(_ body: () throws -> Void) throws
}

/// `release bump`'s whole flow once the command line is parsed: choose the next version (from the menu or the
/// request), preview, confirm, write the files in one transaction, then branch, commit and push. The command only
/// turns its arguments into a ``Request`` and the returned code into its exit status.
package struct BumpService: Sendable {
    /// What the command line asked for (already checked for contradictions by the command).
    package struct Request: Sendable {
        /// `major`, `minor`, `patch`, `build` or a version; nil: ask with the menu.
        package var choice: String?
        /// The build number strategy as written (`--build`); nil: `increment`.
        package var build: String?
        package var project: String?
        package var file: String?
        package var targets: [String]
        /// Create the release branch and commit.
        package var branch: Bool
        package var branchPattern: String?
        package var message: String?
        package var push: Bool
        package var remote: String?
        /// Write without asking.
        package var yes: Bool
        package var dryRun: Bool
        /// Print what changed as JSON on standard output.
        package var json: Bool
        /// Write a version below the project's current one (refused otherwise).
        package var allowDowngrade: Bool

        package init(
            choice: String? = nil, build: String? = nil, project: String? = nil, file: String? = nil, targets: [String] = [],
            branch: Bool = true, branchPattern: String? = nil, message: String? = nil, push: Bool = false,
            remote: String? = nil, yes: Bool = false, dryRun: Bool = false, json: Bool = false, allowDowngrade: Bool = false
        ) {
            self.choice = choice
            self.build = build
            self.project = project
            self.file = file
            self.targets = targets
            self.branch = branch
            self.branchPattern = branchPattern
            self.message = message
            self.push = push
            self.remote = remote
            self.yes = yes
            self.dryRun = dryRun
            self.json = json
            self.allowDowngrade = allowDowngrade
        }
    }

    /// The checkout the bump writes to.
    package let directory: String
    package let environment: [String: String]
    package let console: any BumpConsole
    /// When the bump happens (for `timestamp` build numbers).
    package let now: @Sendable () -> Date

    package init(directory: String, environment: [String: String], console: any BumpConsole, now: @escaping @Sendable () -> Date = Date.init) {
        self.directory = directory
        self.environment = environment
        self.console = console
        self.now = now
    }

    /// Ends the flow with an exit code once what happened is said.
    private struct Stop: Error {
        var code: Int32
    }

    /// Runs the bump.
    /// - Throws: ``CommandFailure``: 64 (a bad command line: nothing chosen without a terminal, no terminal to confirm
    ///   on, an unknown target), 1 (failed or cancelled) or 130 (interrupted in the menu); a problem said on the
    ///   console already is ``CommandFailure/Cause/reported``.
    package func run(_ request: Request) async throws(CommandFailure) {
        if request.choice == nil, !console.isInteractive {
            throw .usage(
                """
                no version chosen and no terminal to ask on: pass major, minor, patch, build or X.Y.Z \
                and optionally --build N|increment|git-count|timestamp|keep|appstore (for example 'release bump patch --build increment --yes')
                """)
        }
        do {
            try await bump(request)
        } catch let stop as Stop {
            throw CommandFailure(code: stop.code, cause: .reported)
        } catch let error as VersioningError {
            // A --target the project does not have is a bad command line.
            if case .unknownTarget = error { throw CommandFailure(code: ExitCodes.usage, cause: .failed("\(error)")) }
            throw .failed("\(error)")
        } catch {
            throw .failed("\(error)")
        }
    }

    private func bump(_ request: Request) async throws {
        // One writer per checkout at a time (a run or another bump), and none before what a killed one left is
        // rolled back; held while the menu waits, so what it offers is still true when it writes.
        var checkout: CheckoutRecovery.Session?
        if !request.dryRun {
            checkout = try await CheckoutRecovery.begin(in: directory, command: "release bump")
            for note in checkout?.notes ?? [] { console.line("note: \(note)") }
        }
        defer { checkout?.lock.release() }
        let session = try await prepare(request)
        let workflow = BumpWorkflow(
            directory: session.versions.baseDirectory, branchPattern: request.branchPattern ?? BumpWorkflow.defaultBranchPattern,
            commitMessage: request.message ?? BumpWorkflow.defaultCommitMessage,
            createBranch: request.branch, commit: request.branch, push: request.push, remote: request.remote ?? "origin",
            environment: environment
        )
        let plan = try session.plan(try choose(request, session: session))
        if let downgrade = plan.downgradeWarning {
            // App Store Connect refuses a version below one it has: a lower version is a typo far more often than a plan.
            guard request.allowDowngrade else {
                console.line("error: \(downgrade): pass --allow-downgrade if that is what you mean (nothing was changed)")
                throw Stop(code: ExitCodes.usage)
            }
            console.line("warning: \(downgrade) (--allow-downgrade)")
        }
        for note in plan.notes { console.line("note: \(note)") }
        if request.dryRun {
            try await describe(plan, workflow: workflow, request: request)
            return
        }
        if plan.files.isEmpty {
            console.line("Nothing to change: the project is at \(Self.title(plan))")
            if request.json { console.output(try plan.jsonText()) }
            return
        }
        let prepared = try await workflow.preflight(plan)
        if !request.yes { try confirm(plan, workflow: workflow, prepared: prepared) }
        try await apply(plan, workflow: workflow, prepared: prepared, request: request)
    }

    /// The project's versions and the new build number, after the warnings reading them gave.
    private func prepare(_ request: Request) async throws -> BumpSession {
        var strategy = try request.build.map(BuildNumberStrategy.init(parsing:)) ?? .increment
        if strategy == .appStore(nil) {
            strategy = .appStore(
                try await AppStoreBuildNumberLookup.next(
                    project: request.project, file: request.file, in: directory,
                    environment: environment, log: { console.line($0) }))
        }
        let session = try await BumpSession.prepare(
            project: request.project, file: request.file, in: directory, strategy: strategy,
            environment: environment, now: now(),
            commitCount: { try await BumpWorkflow.commitCount(in: $0) }, targets: request.targets
        )
        for line in session.versions.warnings() { console.line("warning: \(line)") }
        for line in session.versions.report.disagreements { console.line("warning: \(line)") }
        return session
    }

    /// The version asked for, or the one picked from the menu.
    private func choose(_ request: Request, session: BumpSession) throws -> VersionChoice {
        if let choice = request.choice { return try VersionChoice(parsing: choice) }
        switch console.choose(try session.prompt()) {
        case .chosen(let option):
            return option.choice
        case .cancelled, .pending:
            console.line("cancelled: nothing changed")
            throw Stop(code: ExitCodes.stepFailed)
        case .interrupted:
            console.line("interrupted: nothing changed")
            throw Stop(code: ExitCodes.interrupted)
        }
    }

    /// `3.0.0 (4146) -> 3.0.1 (4147)`.
    static func title(_ plan: BumpPlan) -> String {
        "\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) -> \(plan.version ?? "-") (\(plan.build ?? "-"))"
    }

    /// A dry run: the same checks as a real run (so a taken branch shows up now rather than later), then what it
    /// would write and run.
    private func describe(_ plan: BumpPlan, workflow: BumpWorkflow, request: Request) async throws {
        let prepared = try await workflow.preflight(plan)
        console.line("Dry run: \(Self.title(plan)); nothing is written")
        for command in workflow.usesGit ? workflow.commands(for: plan, prepared: prepared) : [] {
            console.line("would run: \(ShellQuoting.commandLine(command))")
        }
        if request.json {
            console.output(try plan.jsonText(branch: request.branch && !prepared.onBranch ? workflow.branchName(for: plan) : nil, dryRun: true))
        } else {
            console.output(plan.diff)
        }
    }

    /// Every write, branch, commit and push is either confirmed after its preview (on a terminal, whether the
    /// version came from the menu or the command line) or asked for with --yes. Never without a terminal.
    private func confirm(_ plan: BumpPlan, workflow: BumpWorkflow, prepared: BumpWorkflow.Preparation) throws {
        guard console.isInteractive else {
            console.line(
                "error: no terminal to confirm on: pass --yes to write \(plan.files.count) file(s)\(workflow.usesGit ? ", branch and commit" : "") without asking (nothing was changed)"
            )
            throw Stop(code: ExitCodes.usage)
        }
        console.write(workflow.preview(for: plan, prepared: prepared) + " [Y/n]?")
        let answer = console.readAnswer()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard let answer, ["", "y", "yes"].contains(answer) else {
            if answer == nil { console.line("") }
            console.line("cancelled: nothing changed")
            throw Stop(code: ExitCodes.stepFailed)
        }
    }

    /// Writes the files, then branches, commits and pushes, saying each.
    private func apply(_ plan: BumpPlan, workflow: BumpWorkflow, prepared: BumpWorkflow.Preparation, request: Request) async throws {
        // Ctrl-C between two renames would leave some files bumped: hold it off for the few milliseconds the
        // transaction takes (it is handled right after).
        let journal = try FileTransaction.journalFolder(for: directory)
        try console.holdingOffInterrupts {
            try FileTransaction.apply(plan.files, journal: journal)
        }
        console.line("Bumped \(Self.title(plan))")
        for file in plan.files {
            for change in file.changes {
                console.line("  \(change.file)\(change.line.map { ":\($0)" } ?? ""): \(change.key) \(change.old) -> \(change.new)")
            }
        }
        var result: (branch: String?, commit: String?) = (nil, nil)
        if workflow.usesGit {
            result = try await workflow.perform(plan, prepared: prepared)
            if let branch = result.branch { console.line("Created branch \(branch)") }
            if prepared.onBranch { console.line("On branch \(workflow.branchName(for: plan)) already: committed there") }
            if let commit = result.commit { console.line("Committed \(commit.prefix(12))") }
            if request.push { console.line("Pushed to \(request.remote ?? "origin")") }
        }
        if request.json { console.output(try plan.jsonText(branch: result.branch, commit: result.commit)) }
    }
}
