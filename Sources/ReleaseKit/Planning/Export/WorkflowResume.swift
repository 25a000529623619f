import ReleaseSupport

/// How an exported workflow resumes a release that ended *waiting* (a step's `wait` budget ran out while Apple was
/// still processing the build or reviewing it), without a runner waiting meanwhile, for ``GitHubActionsWorkflow`` and
/// ``GitLabCIPipeline`` alike.
///
/// A job that holds a step which waits on Apple (``ExportTraits/waitsOnApple``, ``ExportedJob/resumes``) runs `release run … --report FILE`; when the report
/// says a step waits, the job packs what it ran with into `.git/release-waiting/JOB.tar.gz` (the run journal, the
/// bundles of the commits earlier jobs made, the files they handed on, the journal's key, the commit the job checked
/// out and the one it started from) and keeps it as an artifact; when nothing waits it leaves `JOB.done` instead (so the
/// newest record of a branch says whether its release is still open). Resuming is running that job again on the same
/// commit from that archive, in a later pipeline (a schedule, a manual run, a webhook relay): it unpacks it, refuses when
/// the branch moved on (a newer run releases it), starts from the same commits, signs with the same journal key, and runs
/// `release run --resume` for the job's steps: the finished ones come from the journal, the waiting one runs again (the
/// upload sends nothing: App Store Connect has the file), and the ones after it run once Apple is done. Nothing is built
/// again: the jobs before it do not run.
///
/// The scripts are POSIX sh; `temporary` is a shell word naming a scratch folder outside the tracked files.
enum WorkflowResume {
    /// Where a job leaves its waiting state (inside `.git`: never committed).
    static let folder = ".git/release-waiting"
    /// The most open releases one scheduled run resumes: the rest wait for the next (bounded work per tick).
    static let maximumReleases = 20

    /// The archive a waiting job leaves.
    static func archive(of job: String) -> String { "\(folder)/\(job).tar.gz" }
    /// The mark a job leaves when nothing waits.
    static func done(of job: String) -> String { "\(folder)/\(job).done" }
    /// The run report the job's `release run` writes, to see whether a step waits.
    static func report(temporary: String) -> String { "\(temporary)/release-report.json" }

    /// Lines before the job's `release run`: the commit it starts from (after the state of earlier jobs is restored).
    static func before(job: String, temporary: String) -> [String] {
        [
            "mkdir -p \"\(temporary)\" \(folder)",
            "if [ ! -s \"\(temporary)/release-checkout\" ]; then git rev-parse HEAD > \"\(temporary)/release-checkout\"; fi",
            "git rev-parse HEAD > \"\(temporary)/release-started-at\"",
        ]
    }

    /// Lines after the job's `release run`: when a step waits, the archive (`paths` are the journal, the changes and
    /// the folders earlier jobs hand on, as upload patterns: `*` stays a wildcard); else the done mark. `key` is a
    /// shell expression for the journal key's text (empty: the runner's own key is the next run's too).
    static func save(job: String, paths: [String], temporary: String, key: String) -> [String] {
        let words = paths.map(pattern).joined(separator: " ")
        return [
            "mkdir -p \(folder)",
            "rm -f \(archive(of: job)) \(done(of: job))",
            // The report's top-level key (two spaces in, on its own line): a step's message saying "waiting": is deeper.
            "if grep -q '^  \"waiting\" *:' \"\(report(temporary: temporary))\" 2>/dev/null; then",
            "  key=\(key)",
            "  printf '%s\\n' \"$key\" > \(folder)/\(job).key",
            "  cp \"\(temporary)/release-checkout\" \(folder)/\(job).checkout",
            "  cp \"\(temporary)/release-started-at\" \(folder)/\(job).head",
            "  set --",
            "  for path in \(words); do if [ -e \"$path\" ]; then set -- \"$@\" \"$path\"; fi; done",
            "  tar -czf \"\(temporary)/release-waiting.tar.gz\" \(folder)/\(job).key \(folder)/\(job).checkout \(folder)/\(job).head \"$@\"",
            "  rm -f \(folder)/\(job).key \(folder)/\(job).checkout \(folder)/\(job).head",
            "  mv \"\(temporary)/release-waiting.tar.gz\" \(archive(of: job))",
            "  echo \"release: job \(job) waits on Apple: what it ran with is kept (\(archive(of: job))) for the run that resumes it\" >&2",
            "else",
            "  git rev-parse HEAD > \(done(of: job))",
            "fi",
        ]
    }

    /// Lines that start a resumed job from the archive at `found` (a shell word): unpacked into the checkout, checked
    /// against the branch (`stop` runs when it moved on), the journal key exported (`exportKey` takes the text as
    /// `$key`), and the work tree reset to the commit the waiting job checked out; ``WorkflowState/restore`` follows.
    static func unpack(job: String, found: String, stop: String, exportKey: String) -> [String] {
        [
            "tar -xzf \(found) -C .",
            "waited_at=\"$(cat \(folder)/\(job).head)\"",
            "if [ \"$(git rev-parse HEAD)\" != \"$waited_at\" ]; then",
            "  echo \"release: the branch is at $(git rev-parse --short HEAD), and job \(job) waited on Apple at $(git rev-parse --short \"$waited_at\" 2>/dev/null || echo \"$waited_at\"): a newer run releases it; nothing to resume\" >&2",
            "  \(stop)",
            "fi",
            "key=\"$(cat \(folder)/\(job).key)\"",
            "if [ -n \"$key\" ]; then \(exportKey); fi",
            "git reset --quiet --hard \"$(cat \(folder)/\(job).checkout)\"",
            "rm -f \(folder)/\(job).key \(folder)/\(job).checkout \(folder)/\(job).head",
            "echo \"release: resuming job \(job) where it waited on Apple, on $(git rev-parse --short \"$waited_at\")\" >&2",
        ]
    }

    /// `open-releases`' loop over the branches listed in `file` (a shell word; one name a line, in `$branch`): a branch
    /// that matches one of `branches`' globs and that no line of `skip` passes over (with `continue`) is resumed with
    /// `start`, at most ``maximumReleases`` of them; `$count`, 0 before, counts them.
    static func resumeLoop(branches: [String], listedIn file: String, skip: [String], start: String) -> [String] {
        let patterns = casePatterns(branches)
        return [
            "while IFS= read -r branch; do",
            "  case \"$branch\" in \(patterns.isEmpty ? "*" : patterns.joined(separator: " | "))) ;; *) continue ;; esac",
        ] + skip.map { "  " + $0 } + [
            "  if [ \"$count\" -ge \(maximumReleases) ]; then echo \"release: \(maximumReleases) releases resumed; the others at the next run\" >&2; break; fi",
            "  " + start,
            "  echo \"release: resuming the release of $branch\" >&2",
            "  count=$((count + 1))",
            "done < \(file)",
            "echo \"release: $count release(s) waiting on Apple resumed\" >&2",
        ]
    }

    /// An upload pattern as a shell word: its literal parts quoted, each `*` left to the shell.
    static func pattern(_ path: String) -> String {
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.split(separator: "*", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : ShellQuoting.quote(String($0)) }
            .joined(separator: "*")
    }

    /// Branch globs (`release/*`, `release/**`) as `case` patterns: each run of `*` is one `*`, which `case` lets span `/`.
    static func casePatterns(_ globs: [String]) -> [String] {
        globs.map { glob in
            var body = glob
            while body.contains("**") { body = body.replacingOccurrences(of: "**", with: "*") }
            return body.split(separator: "*", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : ShellQuoting.quote(String($0)) }
                .joined(separator: "*")
        }
    }
}
