import ArgumentParser
import Foundation
import ReleaseExecution
import ReleaseSupport
import ReleaseVersioning

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

    @Option(
        help:
            "The build number: N, increment, git-count, timestamp, keep, appstore (the next one App Store Connect has not seen; needs APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY) or env:NAME (default: increment)."
    )
    var build: String?

    @Option(help: "The .xcodeproj, or a folder holding one (default: the current folder).")
    var project: String?

    @Option(help: "A file holding a single version (a VERSION file) instead of an Xcode project.")
    var file: String?

    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
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

    @Flag(help: "Allow a version below the project's current one (refused otherwise: App Store Connect does not take it).")
    var allowDowngrade = false

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
        let request = BumpService.Request(
            choice: choice ?? exactVersion, build: build, project: project, file: file, targets: targets,
            branch: branch, branchPattern: branchPattern, message: message, push: push, remote: remote,
            yes: yes, dryRun: dryRun, json: json, allowDowngrade: allowDowngrade
        )
        let service = BumpService(
            directory: Platform.currentDirectory(), environment: ProcessInfo.processInfo.environment,
            console: TerminalBumpConsole(isInteractive: isatty(0) == 1))
        do {
            try await service.run(request)
        } catch {
            throw error.exit()
        }
    }
}

/// The real terminal for ``BumpService``: human lines on standard error, results on standard output, the menu and
/// the [Y/n] question on standard input.
struct TerminalBumpConsole: BumpConsole {
    let isInteractive: Bool

    func write(_ text: String) {
        VersioningConsole.write(text)
    }

    func output(_ text: String) {
        print(text, terminator: "")
    }

    func choose(_ prompt: BumpPrompt) -> BumpPromptEditor.Outcome {
        TerminalPrompt.run(prompt)
    }

    func readAnswer() -> String? {
        Swift.readLine()
    }

    func holdingOffInterrupts(_ body: () throws -> Void) throws {
        try Interrupts.shared.holdingOff(body)
    }
}
