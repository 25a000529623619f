import Foundation
import ReleaseSupport

extension StepContext {
    /// Runs a git command that changes something, logging it, and fails with its status when it fails.
    /// - Throws: ``StepError/failed(_:)`` naming the command and its exit status.
    func git(_ arguments: [String], directory: String?) async throws {
        let result = try await run(arguments, directory: directory)
        guard result.succeeded else {
            throw StepError.failed("'\(masker.commandLine(arguments))' exited with status \(result.status)")
        }
    }

    /// Runs a read-only git query quietly and tells whether it succeeded (`rev-parse --verify` style checks).
    func gitSucceeds(_ arguments: [String], directory: String?) async throws -> Bool {
        try await run(arguments, directory: directory, echo: false).succeeded
    }

    /// The `git -c` options that give a commit or an annotated tag an identity (``GitIdentity``): `author`, else the
    /// CI's actor or `release <release@localhost>` for what git has not configured, said in the log when used.
    /// `announce`: say which identity a run uses (not in plans, which show the options).
    func gitIdentityOptions(author: GitIdentity?, directory: String?, announce: Bool) async throws -> [String] {
        let (options, identity, source) = try await GitIdentity.configOptions(explicit: author, environment: environment) { key in
            let result = try await run(GitCommand.configValue(key), directory: directory, echo: false)
            return result.succeeded && !result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        if announce, author == nil, let identity, let source {
            log("git has no identity configured here: '\(identity)' from \(source), for this command only")
        }
        return options
    }

    /// The branch HEAD is on, and whether HEAD is detached; in a detached checkout (GitLab CI, some GitHub
    /// checkouts) the branch the CI's variables name (``CIEnvironment/branch(_:)``), nil when none does.
    func currentBranch(directory: String?) async throws -> (name: String?, detached: Bool) {
        let name = try await capture(GitCommand.currentBranch, directory: directory)
        guard name == "HEAD" else { return (name, false) }
        return (CIEnvironment.branch(environment), true)
    }

    /// Fails unless `directory` is inside a git work tree.
    func requireGitRepository(_ directory: String?) async throws {
        guard try await gitSucceeds(GitCommand.isRepository, directory: directory) else {
            throw StepError.failed("'\(directory.map(resolvePath) ?? workingDirectory)' is not in a git repository")
        }
    }
}
