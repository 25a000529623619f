import Foundation
import ReleaseSupport

/// The git facts a pipeline may use: branch, commit, commit count. Read once per run.
package struct GitInfo: Sendable, Equatable {
    /// The branch; in a detached checkout (CI) the CI system's branch variable, if any.
    package var branch: String?
    package var sha: String?
    package var commitCount: Int?
    /// Why the facts are missing, when they are (not a repository, git not installed).
    package var problem: String?
    /// The run is a pull request build (``CIEnvironment/isPullRequest(_:)``: a GitHub Actions pull request event, a Bitrise, CircleCI
    /// or Buildkite pull request): whoever opens the pull request
    /// names its branch (and picks the branch it targets), so no `when: {"branch": …}` holds (``conditionBranch``).
    package var pullRequest: Bool

    package init(branch: String?, sha: String?, commitCount: Int?, problem: String? = nil, pullRequest: Bool = false) {
        self.branch = branch
        self.sha = sha
        self.commitCount = commitCount
        self.problem = problem
        self.pullRequest = pullRequest
    }

    /// The branch `when: {"branch": …}` conditions test, for profiles and steps: none in a pull request event, so a
    /// fork's pull request from a branch named `release/x` never selects the `release` profile or its steps.
    package var conditionBranch: String? { pullRequest ? nil : branch }

    /// Reads the facts for the repository containing `directory`.
    /// - Parameter needCount: whether to count commits (a walk of the history; skipped unless used).
    package static func read(in directory: String, environment: [String: String], needCount: Bool) async -> GitInfo {
        var info = GitInfo(branch: nil, sha: nil, commitCount: nil, pullRequest: CIEnvironment.isPullRequest(environment))
        let request = ProcessRequest(arguments: ["git", "rev-parse", "--abbrev-ref", "HEAD", "HEAD"], directory: directory, environment: environment)
        do {
            let result = try await ProcessRunner.run(request) { _, _ in }
            if result.succeeded {
                let lines = result.standardOutput.split(separator: "\n").map(String.init)
                if lines.count == 2 {
                    info.branch = lines[0] == "HEAD" ? nil : lines[0]
                    info.sha = lines[1]
                }
            } else {
                info.problem = "'\(directory)' is not in a git repository (or it has no commits)"
            }
            if needCount, info.sha != nil {
                let count = try await ProcessRunner.run(ProcessRequest(arguments: ["git", "rev-list", "--count", "HEAD"], directory: directory, environment: environment)) { _, _ in
                }
                info.commitCount = Int(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        } catch {
            info.problem = "cannot run git: \(error)"
        }
        if info.branch == nil { info.branch = CIEnvironment.branch(environment) }
        return info
    }
}
