import Foundation
import ReleaseSupport
import Synchronization

/// The git side of `release bump`: check the branch can be created before anything is written, then create
/// `release/<version>`, commit exactly the bumped files and optionally push.
package struct BumpWorkflow: Sendable {
    /// Runs a command in a directory and returns how it ended and its standard error.
    package typealias CommandRunner = @Sendable (_ arguments: [String], _ directory: String) async throws -> (result: ProcessResult, errors: String)

    /// The repository folder (the project's folder).
    package var directory: String
    /// The branch to create; `{version}` and `{build}` are replaced.
    package var branchPattern: String
    /// The commit message; `{version}`, `{build}`, `{previous_version}` and `{previous_build}` are replaced.
    package var commitMessage: String
    /// Whether to create a branch; without one the commit goes on the current branch.
    package var createBranch: Bool
    /// Whether to commit at all.
    package var commit: Bool
    /// Whether to push the branch (or the current branch) to ``remote``.
    package var push: Bool
    /// The remote `push` pushes to.
    package var remote: String
    /// The environment git's identity fallback reads (the CI's actor) and detached checkouts take their branch from.
    package var environment: [String: String]
    private let runner: CommandRunner

    /// `release/{version}`.
    package static let defaultBranchPattern = "release/{version}"
    /// `Bump version to {version} ({build})`.
    package static let defaultCommitMessage = "Bump version to {version} ({build})"

    /// Creates a value from its parts.
    package init(
        directory: String, branchPattern: String = BumpWorkflow.defaultBranchPattern,
        commitMessage: String = BumpWorkflow.defaultCommitMessage, createBranch: Bool = true, commit: Bool = true,
        push: Bool = false, remote: String = "origin", environment: [String: String] = ProcessInfo.processInfo.environment,
        runner: CommandRunner? = nil
    ) {
        self.directory = directory
        self.branchPattern = branchPattern
        self.commitMessage = commitMessage
        self.createBranch = createBranch
        self.commit = commit
        self.push = push
        self.remote = remote
        self.environment = environment
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

    /// What ``preflight(_:)`` found out that the commands depend on.
    package struct Preparation: Sendable, Equatable {
        /// The release branch is already checked out (or, in a detached CI checkout, is the CI's branch): the
        /// commit goes there and no branch is created.
        package var onBranch: Bool
        /// HEAD is detached: a push names the branch in full (`HEAD:refs/heads/NAME`).
        package var detached: Bool
        /// `git -c` options giving the commit an identity where git has none (``GitIdentity``).
        package var identity: [String]

        /// Creates a value from its parts.
        package init(onBranch: Bool = false, detached: Bool = false, identity: [String] = []) {
            self.onBranch = onBranch
            self.detached = detached
            self.identity = identity
        }
    }

    /// Whether this workflow runs git at all.
    package var usesGit: Bool { createBranch || commit || push }

    /// The branch name for `plan`.
    package func branchName(for plan: BumpPlan) -> String {
        substitute(branchPattern, plan)
    }

    /// The commit message for `plan`.
    package func message(for plan: BumpPlan) -> String {
        substitute(commitMessage, plan)
    }

    /// What a bump will do, for the confirmation on a terminal: every value it writes, then the branch, the commit
    /// with its message and the push, each named, so `[Y/n]` answers for all of it.
    package func preview(for plan: BumpPlan, prepared: Preparation = Preparation()) -> String {
        let title = "\(plan.previousVersion ?? "-") (\(plan.previousBuild ?? "-")) -> \(plan.version ?? "-") (\(plan.build ?? "-"))"
        var text = "This will:\n"
        for change in plan.changes {
            text += "  write \(change.file)\(change.line.map { ":\($0)" } ?? ""): \(change.key) \(change.old) -> \(change.new)\n"
        }
        if createBranch, !prepared.onBranch { text += "  create the branch '\(branchName(for: plan))' and switch to it\n" }
        if commit {
            let place = prepared.onBranch ? " on '\(branchName(for: plan))', the current branch," : ""
            text += "  commit \(plan.files.count) file(s)\(place) with the message \"\(message(for: plan))\"\n"
        }
        if push { text += "  push \(createBranch ? "'\(branchName(for: plan))'" : "the current branch") to '\(remote)'\n" }
        return text + "Bump \(title)"
    }

    /// Every git command ``perform(_:prepared:)`` would run, for dry runs.
    package func commands(for plan: BumpPlan, prepared: Preparation = Preparation()) -> [[String]] {
        var commands: [[String]] = []
        let branch = branchName(for: plan)
        if createBranch, !prepared.onBranch { commands.append(GitCommand.createBranch(branch)) }
        if commit {
            commands.append(GitCommand.add(plan.files.map(\.path)))
            commands.append(GitCommand.configured(GitCommand.commit(message: message(for: plan), paths: plan.files.map(\.path)), prepared.identity))
        }
        if push {
            // A detached checkout has no branch for `git push` to name the destination after: name it in full.
            let ref = createBranch ? (prepared.detached ? "HEAD:refs/heads/\(branch)" : branch) : "HEAD"
            commands.append(GitCommand.push(remote: remote, refs: [ref], setUpstream: createBranch && !prepared.detached))
        }
        return commands
    }

    /// Checks, before any file is written, that the commands can succeed: a work tree, a free valid branch
    /// name (or the release branch already checked out: `release bump build` on `release/X.Y.Z`), an existing
    /// remote; and finds the identity the commit needs where git has none.
    /// - Returns: what the commands depend on, for ``commands(for:prepared:)`` and ``perform(_:prepared:)``.
    /// - Throws: ``VersioningError/git(_:)``.
    @discardableResult
    package func preflight(_ plan: BumpPlan) async throws -> Preparation {
        var prepared = Preparation()
        guard usesGit else { return prepared }
        guard try await runner(GitCommand.isRepository, directory).result.succeeded else {
            throw VersioningError.git("'\(directory)' is not in a git repository (pass --no-branch to only write the files)")
        }
        if createBranch {
            let branch = branchName(for: plan)
            guard GitCommand.isValidRefName(branch) else {
                throw VersioningError.git("invalid branch name '\(branch)' (from the pattern '\(branchPattern)')")
            }
            let (current, _) = try await runner(GitCommand.currentBranch, directory)
            let name = current.succeeded ? current.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) : ""
            prepared.detached = name == "HEAD"
            // On the release branch already (checked out, or the CI's branch in a detached checkout): commit there.
            prepared.onBranch = name == branch || (prepared.detached && CIEnvironment.branch(environment) == branch)
            if !prepared.onBranch, try await runner(GitCommand.branchExists(branch), directory).result.succeeded {
                throw VersioningError.git("branch '\(branch)' already exists (check it out to bump there, delete it, or pass --no-branch)")
            }
        }
        if push, !(try await runner(GitCommand.remoteURL(remote), directory).result.succeeded) {
            throw VersioningError.git("no git remote '\(remote)' to push to")
        }
        if commit {
            prepared.identity = try await GitIdentity.configOptions(explicit: nil, environment: environment) { key in
                let (result, _) = try await runner(GitCommand.configValue(key), directory)
                return result.succeeded && !result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }.options
        }
        return prepared
    }

    /// Creates the branch, commits the plan's files and pushes, as configured.
    /// - Parameter prepared: what ``preflight(_:)`` returned.
    /// - Returns: the branch (when one was created) and the new commit.
    /// - Throws: ``VersioningError/git(_:)`` naming the command that failed.
    package func perform(_ plan: BumpPlan, prepared: Preparation = Preparation()) async throws -> (branch: String?, commit: String?) {
        for command in commands(for: plan, prepared: prepared) {
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
        return (createBranch && !prepared.onBranch ? branchName(for: plan) : nil, sha)
    }

    /// The number of commits on `HEAD` in `directory` (`git rev-list --count HEAD`), for `--build git-count`.
    /// - Throws: ``VersioningError/git(_:)`` outside a repository or without commits.
    package static func commitCount(in directory: String) async throws -> Int {
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
