/// What a CI system's environment says about the checkout it made: the branch a detached checkout is on, and whether
/// the build is a pull request's, whose branch its author names. In Support so that every layer reads the same facts:
/// `GitInfo` (profiles and conditions), `git.push`, `gate.git`, `version.bump` and `release bump`.
package enum CIEnvironment {
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
    package static func isPullRequest(_ environment: [String: String]) -> Bool {
        if pullRequestEvents.contains(environment["GITHUB_EVENT_NAME"] ?? "") { return true }
        for name in ["BITRISE_PULL_REQUEST", "CIRCLE_PULL_REQUEST", "BUILDKITE_PULL_REQUEST"] {
            if let value = environment[name], !value.isEmpty, value != "false" { return true }
        }
        return false
    }

    /// Whether `environment` is a CI job's: `CI` is set, and not `false` or `0` (GitHub Actions, GitLab CI, Bitrise,
    /// CircleCI, Buildkite and the others set `CI=true`).
    package static func isCI(_ environment: [String: String]) -> Bool {
        let value = (environment["CI"] ?? "").lowercased()
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// The branch the CI system names in `environment` (``branchVariables``, in order), for a detached checkout;
    /// nil when none does. `git.push` and `release bump` push a detached HEAD to this branch.
    package static func branch(_ environment: [String: String]) -> String? {
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
