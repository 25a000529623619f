import Foundation

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

    /// Fails unless `directory` is inside a git work tree.
    func requireGitRepository(_ directory: String?) async throws {
        guard try await gitSucceeds(GitCommand.isRepository, directory: directory) else {
            throw StepError.failed("'\(directory.map(resolvePath) ?? workingDirectory)' is not in a git repository")
        }
    }
}
