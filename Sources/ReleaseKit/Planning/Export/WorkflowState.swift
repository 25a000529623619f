/// How an exported job hands the repository as it left it (the commits its steps made and its changes to tracked
/// files, committed or not) to the jobs after it, for ``GitHubActionsWorkflow`` and ``GitLabCIPipeline`` alike.
///
/// Every job checks out the commit the pipeline was triggered on, so a commit made in one job (the starter's bump,
/// `git.commit`) is not there in the next: a `git.tag` there would tag the un-bumped commit and a `git.push` would push
/// nothing new. So a job that changed the repository records its state as one commit whose tree is the work tree's
/// tracked files and whose first parent is the job's `HEAD` (its second parent is the state it inherited, so states
/// form a chain), under `refs/release-state/JOB`, and carries it to later jobs as a git bundle
/// (`.git/release-changes/JOB.bundle`, holding everything since the checked-out commit) inside its state artifact.
/// A later job fetches the bundles of the jobs it waits for, takes the latest state (each is a descendant of those
/// before it; two jobs that changed the repository without one waiting for the other cannot be combined, and the job
/// fails saying so), resets to it, then resets its `HEAD` (and branch) to the state's first parent: the job starts at
/// the last commit made before it, with the uncommitted changes in its work tree, as one machine would.
///
/// The scripts are POSIX sh (GitLab's images may have no bash); `temporary` is a shell word naming a folder for
/// scratch files outside the work tree's tracked files.
enum WorkflowState {
    /// Where a job leaves its bundle for the jobs after it (inside `.git`: never committed, uploaded with the journal).
    static let folder = ".git/release-changes"
    /// The ref a job's state is recorded under, in its own repository and in its bundle.
    static func ref(of job: String) -> String { "refs/release-state/\(job)" }
    /// The state a job started from, when it inherited one.
    static let inherited = "refs/release-inherited"

    /// Fetches the states `ancestors` (in job order) recorded and starts the work tree from the latest. `annotation`
    /// prefixes the error line (`::error::` on GitHub).
    static func restore(ancestors: [String], temporary: String, annotation: String = "") -> [String] {
        [
            "mkdir -p \"\(temporary)\"",
            "git rev-parse HEAD > \"\(temporary)/release-checkout\"",
            "state=",
            "for job in \(ancestors.joined(separator: " ")); do",
            "  bundle=\"\(folder)/$job.bundle\"",
            "  if [ ! -s \"$bundle\" ]; then continue; fi",
            "  git fetch --quiet --no-tags \"$bundle\" \"+\(ref(of: "$job")):\(ref(of: "$job"))\"",
            "  if [ -z \"$state\" ] || git merge-base --is-ancestor \"$state\" \"\(ref(of: "$job"))\"; then",
            "    state=\"\(ref(of: "$job"))\"",
            "  elif ! git merge-base --is-ancestor \"\(ref(of: "$job"))\" \"$state\"; then",
            "    echo \"\(annotation)jobs ${state##*/} and $job both changed the repository, and neither waits for the other: their commits cannot be combined; commit in one job, or make one need the other\"\(annotation.isEmpty ? " >&2" : "")",
            "    exit 1",
            "  fi",
            "done",
            "if [ -n \"$state\" ]; then",
            "  git reset --quiet --hard \"$state\"",
            "  git reset --quiet \"$state^\"",
            "  git update-ref \(inherited) \"$state\"",
            "  echo \"release: starting from the repository as job ${state##*/} left it: $(git log -1 --format='%h %s')\" >&2",
            "fi",
        ]
    }

    /// Notes where the job starts: the checked-out commit (unless ``restore(ancestors:temporary:annotation:)`` did),
    /// `HEAD`, and the tree of the tracked files.
    static func before(temporary: String) -> [String] {
        [
            "mkdir -p \"\(temporary)\"",
            "if [ ! -s \"\(temporary)/release-checkout\" ]; then git rev-parse HEAD > \"\(temporary)/release-checkout\"; fi",
            "git rev-parse HEAD > \"\(temporary)/release-head-before\"",
        ] + snapshot(into: "before", temporary: temporary)
    }

    /// Records the job's state and bundles it, when its steps committed or changed a tracked file.
    static func record(job: String, temporary: String) -> [String] {
        let commit = "git -c user.name=release -c user.email=release@localhost commit-tree \"$(cat \"\(temporary)/release-tree-after\")\" -p \"$head\""
        let message = "-m 'release: the repository as job \(job) left it'"
        return snapshot(into: "after", temporary: temporary) + [
            "head=\"$(git rev-parse HEAD)\"",
            "if [ \"$head\" != \"$(cat \"\(temporary)/release-head-before\")\" ] || [ \"$(cat \"\(temporary)/release-tree-after\")\" != \"$(cat \"\(temporary)/release-tree-before\")\" ]; then",
            "  if inherited=\"$(git rev-parse --quiet --verify \(inherited))\"; then",
            "    state=\"$(\(commit) -p \"$inherited\" \(message))\"",
            "  else",
            "    state=\"$(\(commit) \(message))\"",
            "  fi",
            "  git update-ref \(ref(of: job)) \"$state\"",
            "  mkdir -p \(folder)",
            "  git bundle create --quiet \(folder)/\(job).bundle \(ref(of: job)) --not \"$(cat \"\(temporary)/release-checkout\")\"",
            "  echo \"release: job \(job) hands on its commits and changes: $(git log -1 --format='%h %s' \"$head\")\" >&2",
            "fi",
        ]
    }

    /// Writes the tree of the tracked files as they are now (the work tree's content, staged or not) to
    /// `TEMPORARY/release-tree-NAME`, through an index of its own: the repository's index is left alone.
    static func snapshot(into name: String, temporary: String) -> [String] {
        let index = "GIT_INDEX_FILE=\"\(temporary)/release-index-\(name)\""
        return [
            "\(index) git read-tree HEAD",
            "\(index) git add -u",
            "\(index) git write-tree > \"\(temporary)/release-tree-\(name)\"",
        ]
    }
}
