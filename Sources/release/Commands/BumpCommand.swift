import ArgumentParser
import Foundation
import ReleaseKit

/// `release bump`: choose the next version (from a menu on a terminal, or a flag), write it where the project
/// defines it, then create `release/<version>` and commit.
struct BumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bump",
        abstract: "Write the next version into the project, create release/<version> and commit.",
        discussion: """
            Without a choice on a terminal, a menu offers the next major, minor and patch versions and the current one \
            (build only), all with one new build number: patch is highlighted, the arrow keys or a number move the \
            highlight, Enter takes it, q or Esc cancel. release bump --version X.Y.Z is release bump X.Y.Z. On a terminal every bump then shows what it will \
            write, the branch, the commit message and the push, and asks [Y/n]. Without a terminal nothing is written \
            without --yes: release bump patch --yes.
            """
    )

    @Argument(help: "major, minor, patch, build (only the build number) or a version such as 3.1.0.")
    var choice: String?

    // `release bump --version 3.2.0` is how many people spell a version: it means `release bump 3.2.0`.
    @Option(name: .customLong("version"), help: ArgumentHelp("The version to write: the same as 'release bump X.Y.Z'.", valueName: "X.Y.Z"))
    var exactVersion: String?

    @Option(help: "The build number: N, increment, git-count, timestamp, keep, appstore (the next one App Store Connect has not seen; needs APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY) or env:NAME (default: increment).")
    var build: String?

    @Option(help: "The .xcodeproj, or a folder holding one (default: the current folder).")
    var project: String?

    @Option(help: "A file holding a single version (a VERSION file) instead of an Xcode project.")
    var file: String?

    @Option(name: .customLong("target"), help: ArgumentHelp(
        "Bump only this target and what shares its definitions (repeatable; default: the app and every target in step with it).",
        valueName: "name"
    ))
    var targets: [String] = []

    @Flag(inversion: .prefixedNo, help: "Create the release branch and commit (--no-branch only writes the files).")
    var branch = true

    // The three below have defaults but no default value here, so that one given where it has no effect is an error.
    @Option(help: "The branch to create; {version} and {build} are replaced (default: \(BumpWorkflow.defaultBranchPattern)).")
    var branchPattern: String?

    @Option(help: "The commit message; {version}, {build}, {previous_version} and {previous_build} are replaced (default: \"\(BumpWorkflow.defaultCommitMessage)\").")
    var message: String?

    @Flag(help: "Push the branch to origin.")
    var push = false

    @Option(help: "The remote --push pushes to (default: origin).")
    var remote: String?

    @Flag(help: "Write, branch, commit (and push) without asking; required without a terminal.")
    var yes = false

    @Flag(help: "Print the diff and the git commands; change nothing.")
    var dryRun = false

    @Flag(help: "Print what changed (files, old and new values) as JSON on standard output.")
    var json = false

    func validate() throws {
        if let choice { _ = try parse { try VersionChoice(parsing: choice) } }
        if let exactVersion {
            guard case .exact(let version)? = try? VersionChoice(parsing: exactVersion) else {
                throw ValidationError("--version takes a version such as 3.2.0, found '\(exactVersion)': write 'release bump X.Y.Z'\(Self.partHint(exactVersion))")
            }
            if let choice, try VersionChoice(parsing: choice) != .exact(version) {
                throw ValidationError("'\(choice)' and '--version \(exactVersion)' choose different versions: pass one, as 'release bump X.Y.Z'")
            }
        }
        if let build { _ = try parse { try BuildNumberStrategy(parsing: build) } }
        if project != nil, file != nil { throw ValidationError("pass --project or --file, not both") }
        if file != nil, !targets.isEmpty { throw ValidationError("a version file has no targets: --target needs an Xcode project") }
        if push, !branch { throw ValidationError("--push pushes the release branch: it cannot be combined with --no-branch") }
        if !branch, branchPattern != nil { throw ValidationError("--branch-pattern names the release branch: it cannot be combined with --no-branch") }
        if !branch, message != nil { throw ValidationError("--message is the commit's: --no-branch does not commit") }
        if !push, let remote { throw ValidationError("--remote '\(remote)' is where --push pushes: add --push, or leave --remote out") }
    }

    /// `--version patch`: the part names are the positional argument's.
    private static func partHint(_ value: String) -> String {
        ["major", "minor", "patch", "build", "keep"].contains(value.lowercased()) ? " or 'release bump \(value.lowercased())'" : ""
    }

    private func parse<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        let interactive = isatty(0) == 1
        if choice == nil, exactVersion == nil, !interactive {
            VersioningConsole.line("""
                error: no version chosen and no terminal to ask on: pass major, minor, patch, build or X.Y.Z \
                and optionally --build N|increment|git-count|timestamp|keep|appstore (for example 'release bump patch --build increment --yes')
                """)
            throw ExitCode(64)
        }
        do {
            try await bump(interactive: interactive)
        } catch let exit as ExitCode {
            throw exit
        } catch let error as VersioningError {
            VersioningConsole.line("error: \(error)")
            // A --target the project does not have is a bad command line.
            if case .unknownTarget = error { throw ExitCode(64) }
            throw ExitCode(1)
        } catch {
            VersioningConsole.line("error: \(error)")
            throw ExitCode(1)
        }
    }

    private func bump(interactive: Bool) async throws {
        let directory = Platform.currentDirectory()
        // One writer per checkout at a time (a run or another bump), and none before what a killed one left is
        // rolled back; held while the menu waits, so what it offers is still true when it writes.
        var checkout: CheckoutRecovery.Session?
        if !dryRun {
            checkout = try await CheckoutRecovery.take(in: directory, command: "release bump")
        }
        defer { checkout?.lock.release() }
        var strategy = try build.map(BuildNumberStrategy.init(parsing:)) ?? .increment
        if strategy == .appStore(nil) {
            strategy = .appStore(try await AppStoreBuildNumberLookup.next(project: project, file: file, in: directory,
                                                                          environment: ProcessInfo.processInfo.environment))
        }
        let session = try await BumpSession.prepare(
            project: project, file: file, in: directory, strategy: strategy,
            environment: ProcessInfo.processInfo.environment, now: Date(),
            commitCount: { try await BumpWorkflow.commitCount(in: $0) }, targets: targets
        )
        for line in session.versions.report.warnings ?? [] { VersioningConsole.line("warning: \(line)") }
        for line in session.versions.report.disagreements { VersioningConsole.line("warning: \(line)") }
        let remote = remote ?? "origin"
        let workflow = BumpWorkflow(
            directory: session.versions.baseDirectory, branchPattern: branchPattern ?? BumpWorkflow.defaultBranchPattern,
            commitMessage: message ?? BumpWorkflow.defaultCommitMessage,
            createBranch: branch, commit: branch, push: push, remote: remote
        )
        let versionChoice: VersionChoice
        if let choice = choice ?? exactVersion {
            versionChoice = try VersionChoice(parsing: choice)
        } else {
            switch TerminalPrompt.run(try session.prompt()) {
            case .chosen(let option):
                versionChoice = option.choice
            case .cancelled, .pending:
                VersioningConsole.line("cancelled: nothing changed")
                throw ExitCode(1)
            case .interrupted:
                VersioningConsole.line("interrupted: nothing changed")
                throw ExitCode(130)
            }
        }

        let plan = try session.plan(versionChoice)
        if let warning = plan.downgradeWarning { VersioningConsole.line("warning: \(warning)") }
        for note in plan.notes { VersioningConsole.line("note: \(note)") }
        let title = "\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) -> \(plan.version ?? "-") (\(plan.build ?? "-"))"
        if dryRun {
            // The same checks as a real run, so a taken branch shows up now rather than later.
            try await workflow.preflight(plan)
            VersioningConsole.line("Dry run: \(title); nothing is written")
            for command in workflow.usesGit ? workflow.commands(for: plan) : [] {
                VersioningConsole.line("would run: \(ShellQuoting.commandLine(command))")
            }
            if json {
                print(try plan.jsonText(branch: branch ? workflow.branchName(for: plan) : nil, dryRun: true), terminator: "")
            } else {
                print(plan.diff, terminator: "")
            }
            return
        }
        if plan.files.isEmpty {
            VersioningConsole.line("Nothing to change: the project is at \(title)")
            if json { print(try plan.jsonText(), terminator: "") }
            return
        }
        // Every write, branch, commit and push is either confirmed after its preview (on a terminal, whether the
        // version came from the menu or the command line) or asked for with --yes. Never without a terminal.
        if !yes {
            guard interactive else {
                VersioningConsole.line("error: no terminal to confirm on: pass --yes to write \(plan.files.count) file(s)\(workflow.usesGit ? ", branch and commit" : "") without asking (nothing was changed)")
                throw ExitCode(64)
            }
            VersioningConsole.write(workflow.preview(for: plan) + " [Y/n]?")
            let answer = Swift.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            guard let answer, ["", "y", "yes"].contains(answer) else {
                if answer == nil { VersioningConsole.line("") }
                VersioningConsole.line("cancelled: nothing changed")
                throw ExitCode(1)
            }
        }
        try await workflow.preflight(plan)
        // Ctrl-C between two renames would leave some files bumped: hold it off for the few milliseconds the
        // transaction takes (it is handled right after).
        try Interrupts.shared.holdingOff {
            try FileTransaction.apply(plan.files, journal: try FileTransaction.journalFolder(for: directory))
        }
        VersioningConsole.line("Bumped \(title)")
        for file in plan.files {
            for change in file.changes {
                VersioningConsole.line("  \(change.file)\(change.line.map { ":\($0)" } ?? ""): \(change.key) \(change.old) -> \(change.new)")
            }
        }
        var result: (branch: String?, commit: String?) = (nil, nil)
        if workflow.usesGit {
            result = try await workflow.perform(plan)
            if let branch = result.branch { VersioningConsole.line("Created branch \(branch)") }
            if let commit = result.commit { VersioningConsole.line("Committed \(commit.prefix(12))") }
            if push { VersioningConsole.line("Pushed to \(remote)") }
        }
        if json { print(try plan.jsonText(branch: result.branch, commit: result.commit), terminator: "") }
    }
}
