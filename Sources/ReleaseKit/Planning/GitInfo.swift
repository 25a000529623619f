import Foundation

/// The git facts a pipeline may use: branch, commit, commit count. Read once per run.
public struct GitInfo: Sendable, Equatable {
    /// The branch; in a detached checkout (CI) the CI system's branch variable, if any.
    public var branch: String?
    public var sha: String?
    public var commitCount: Int?
    /// Why the facts are missing, when they are (not a repository, git not installed).
    public var problem: String?
    /// The run is a pull request build (``isPullRequest(_:)``: a GitHub Actions pull request event, a Bitrise, CircleCI
    /// or Buildkite pull request): whoever opens the pull request
    /// names its branch (and picks the branch it targets), so no `when: {"branch": …}` holds (``conditionBranch``).
    public var pullRequest: Bool

    public init(branch: String?, sha: String?, commitCount: Int?, problem: String? = nil, pullRequest: Bool = false) {
        self.branch = branch
        self.sha = sha
        self.commitCount = commitCount
        self.problem = problem
        self.pullRequest = pullRequest
    }

    /// The branch `when: {"branch": …}` conditions test, for profiles and steps: none in a pull request event, so a
    /// fork's pull request from a branch named `release/x` never selects the `release` profile or its steps.
    public var conditionBranch: String? { pullRequest ? nil : branch }

    /// CI variables that name the branch when the checkout is detached, in the order they are trusted.
    static let branchVariables = [
        "RELEASE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME",
        "BITRISE_GIT_BRANCH", "BUILDKITE_BRANCH", "CIRCLE_BRANCH", "TRAVIS_BRANCH", "BRANCH_NAME", "GIT_BRANCH",
    ]

    /// The GitHub Actions events of a pull request (`GITHUB_EVENT_NAME`): their branch is the author's.
    static let pullRequestEvents: Set<String> = [
        "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment",
    ]

    /// Whether `environment` is a pull request build: a GitHub Actions pull request event (`GITHUB_EVENT_NAME`), or
    /// Bitrise's `BITRISE_PULL_REQUEST`, CircleCI's `CIRCLE_PULL_REQUEST` or Buildkite's `BUILDKITE_PULL_REQUEST` set
    /// (Buildkite sets `false` outside one). GitLab merge requests are not told apart yet.
    static func isPullRequest(_ environment: [String: String]) -> Bool {
        if pullRequestEvents.contains(environment["GITHUB_EVENT_NAME"] ?? "") { return true }
        for name in ["BITRISE_PULL_REQUEST", "CIRCLE_PULL_REQUEST", "BUILDKITE_PULL_REQUEST"] {
            if let value = environment[name], !value.isEmpty, value != "false" { return true }
        }
        return false
    }

    /// Reads the facts for the repository containing `directory`.
    /// - Parameter needCount: whether to count commits (a walk of the history; skipped unless used).
    public static func read(in directory: String, environment: [String: String], needCount: Bool) async -> GitInfo {
        var info = GitInfo(branch: nil, sha: nil, commitCount: nil, pullRequest: isPullRequest(environment))
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
        if info.branch == nil { info.branch = branch(fromCI: environment) }
        return info
    }

    /// The branch the CI system names in `environment` (``branchVariables``, in order), for a detached checkout;
    /// nil when none does. `git.push` and `release bump` push a detached HEAD to this branch.
    public static func branch(fromCI environment: [String: String]) -> String? {
        // GITHUB_HEAD_REF is the pull request's own branch, named by its author: in a pull request event the
        // branch is GitHub's ref for it (GITHUB_REF_NAME, `42/merge`) instead.
        let pullRequest = isPullRequest(environment)
        for name in branchVariables where !(pullRequest && name == "GITHUB_HEAD_REF") {
            if var value = environment[name], !value.isEmpty {
                if name == "GIT_BRANCH", value.hasPrefix("origin/") { value.removeFirst("origin/".count) }
                return value
            }
        }
        return nil
    }
}
