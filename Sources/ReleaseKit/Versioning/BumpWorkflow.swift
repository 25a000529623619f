import Foundation
import Synchronization

/// The git side of `release bump`: check the branch can be created before anything is written, then create
/// `release/<version>`, commit exactly the bumped files and optionally push.
public struct BumpWorkflow: Sendable {
    /// Runs a command in a directory and returns how it ended and its standard error.
    public typealias CommandRunner = @Sendable (_ arguments: [String], _ directory: String) async throws -> (result: ProcessResult, errors: String)

    /// The repository folder (the project's folder).
    public var directory: String
    /// The branch to create; `{version}` and `{build}` are replaced.
    public var branchPattern: String
    /// The commit message; `{version}`, `{build}`, `{previous_version}` and `{previous_build}` are replaced.
    public var commitMessage: String
    /// Whether to create a branch; without one the commit goes on the current branch.
    public var createBranch: Bool
    /// Whether to commit at all.
    public var commit: Bool
    /// Whether to push the branch (or the current branch) to ``remote``.
    public var push: Bool
    /// The remote `push` pushes to.
    public var remote: String
    private let runner: CommandRunner

    /// `release/{version}`.
    public static let defaultBranchPattern = "release/{version}"
    /// `Bump version to {version} ({build})`.
    public static let defaultCommitMessage = "Bump version to {version} ({build})"

    /// Creates a value from its parts.
    public init(
        directory: String, branchPattern: String = BumpWorkflow.defaultBranchPattern,
        commitMessage: String = BumpWorkflow.defaultCommitMessage, createBranch: Bool = true, commit: Bool = true,
        push: Bool = false, remote: String = "origin", runner: CommandRunner? = nil
    ) {
        self.directory = directory
        self.branchPattern = branchPattern
        self.commitMessage = commitMessage
        self.createBranch = createBranch
        self.commit = commit
        self.push = push
        self.remote = remote
        self.runner =
            runner ?? { arguments, directory in
                let errors = Mutex<[String]>([])
                let result = try await ProcessRunner.run(
                    ProcessRequest(arguments: arguments, directory: directory, environment: ProcessInfo.processInfo.environment)
                ) { line, stream in
                    if stream == .stderr { errors.withLock { $0.append(line) } }
                }
                return (result, errors.withLock { $0.suffix(5).joined(separator: " ") })
            }
    }

    /// Whether this workflow runs git at all.
    public var usesGit: Bool { createBranch || commit || push }

    /// The branch name for `plan`.
    public func branchName(for plan: BumpPlan) -> String {
        substitute(branchPattern, plan)
    }

    /// The commit message for `plan`.
    public func message(for plan: BumpPlan) -> String {
        substitute(commitMessage, plan)
    }

    /// What a bump will do, for the confirmation on a terminal: every value it writes, then the branch, the commit
    /// with its message and the push, each named, so `[Y/n]` answers for all of it.
    public func preview(for plan: BumpPlan) -> String {
        let title = "\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) -> \(plan.version ?? "-") (\(plan.build ?? "-"))"
        var text = "This will:\n"
        for change in plan.changes {
            text += "  write \(change.file)\(change.line.map { ":\($0)" } ?? ""): \(change.key) \(change.old) -> \(change.new)\n"
        }
        if createBranch { text += "  create the branch '\(branchName(for: plan))' and switch to it\n" }
        if commit { text += "  commit \(plan.files.count) file(s) with the message \"\(message(for: plan))\"\n" }
        if push { text += "  push \(createBranch ? "'\(branchName(for: plan))'" : "the current branch") to '\(remote)'\n" }
        return text + "Bump \(title)"
    }

    /// Every git command ``perform(_:)`` would run, for dry runs.
    public func commands(for plan: BumpPlan) -> [[String]] {
        var commands: [[String]] = []
        if createBranch { commands.append(GitCommand.createBranch(branchName(for: plan))) }
        if commit {
            commands.append(GitCommand.add(plan.files.map(\.path)))
            commands.append(GitCommand.commit(message: message(for: plan), paths: plan.files.map(\.path)))
        }
        if push {
            commands.append(GitCommand.push(remote: remote, refs: [createBranch ? branchName(for: plan) : "HEAD"], setUpstream: createBranch))
        }
        return commands
    }

    /// Checks, before any file is written, that the commands can succeed: a work tree, a free valid branch
    /// name, an existing remote.
    /// - Throws: ``VersioningError/git(_:)``.
    public func preflight(_ plan: BumpPlan) async throws {
        guard usesGit else { return }
        guard try await runner(GitCommand.isRepository, directory).result.succeeded else {
            throw VersioningError.git("'\(directory)' is not in a git repository (pass --no-branch to only write the files)")
        }
        if createBranch {
            let branch = branchName(for: plan)
            guard GitCommand.isValidRefName(branch) else {
                throw VersioningError.git("invalid branch name '\(branch)' (from the pattern '\(branchPattern)')")
            }
            if try await runner(GitCommand.branchExists(branch), directory).result.succeeded {
                throw VersioningError.git("branch '\(branch)' already exists (delete it, or pass --no-branch)")
            }
        }
        if push, !(try await runner(GitCommand.remoteURL(remote), directory).result.succeeded) {
            throw VersioningError.git("no git remote '\(remote)' to push to")
        }
    }

    /// Creates the branch, commits the plan's files and pushes, as configured.
    /// - Returns: the branch (when one was created) and the new commit.
    /// - Throws: ``VersioningError/git(_:)`` naming the command that failed.
    public func perform(_ plan: BumpPlan) async throws -> (branch: String?, commit: String?) {
        for command in commands(for: plan) {
            let (result, errors) = try await runner(command, directory)
            guard result.succeeded else {
                let detail = errors.isEmpty ? "" : ": \(errors)"
                throw VersioningError.git("'\(ShellQuoting.commandLine(command))' exited with status \(result.status)\(detail)")
            }
        }
        var sha: String?
        if commit {
            let (result, _) = try await runner(GitCommand.head, directory)
            if result.succeeded { sha = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        return (createBranch ? branchName(for: plan) : nil, sha)
    }

    /// The number of commits on `HEAD` in `directory` (`git rev-list --count HEAD`), for `--build git-count`.
    /// - Throws: ``VersioningError/git(_:)`` outside a repository or without commits.
    public static func commitCount(in directory: String) async throws -> Int {
        let errors = Mutex<[String]>([])
        let result = try await ProcessRunner.run(
            ProcessRequest(arguments: GitCommand.commitCount, directory: directory, environment: ProcessInfo.processInfo.environment)
        ) { line, stream in
            if stream == .stderr { errors.withLock { $0.append(line) } }
        }
        let output = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.succeeded, let count = Int(output) else {
            let detail = errors.withLock { $0.joined(separator: " ") }
            throw VersioningError.git("cannot count commits in '\(directory)' for --build git-count\(detail.isEmpty ? "" : ": \(detail)")")
        }
        return count
    }

    private func substitute(_ pattern: String, _ plan: BumpPlan) -> String {
        pattern.replacingOccurrences(of: "{version}", with: plan.version ?? "")
            .replacingOccurrences(of: "{build}", with: plan.build ?? "")
            .replacingOccurrences(of: "{previous_version}", with: plan.previousVersion ?? "")
            .replacingOccurrences(of: "{previous_build}", with: plan.previousBuild ?? "")
    }
}
