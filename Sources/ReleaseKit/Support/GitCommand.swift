/// The argv of every git command the release steps and `release bump` run, in one place so that dry runs
/// print exactly what a real run executes.
package enum GitCommand {
    /// `git checkout -b NAME [START]`.
    package static func createBranch(_ name: String, startPoint: String? = nil) -> [String] {
        ["git", "checkout", "-b", name] + (startPoint.map { [$0] } ?? [])
    }

    /// `git branch NAME [START]`: create without switching to it.
    package static func branch(_ name: String, startPoint: String? = nil) -> [String] {
        ["git", "branch", name] + (startPoint.map { [$0] } ?? [])
    }

    /// `git add -- PATHS` (or `git add -A` for everything).
    package static func add(_ paths: [String]) -> [String] {
        paths.isEmpty ? ["git", "add", "-A"] : ["git", "add", "--"] + paths
    }

    /// `git commit -m MESSAGE [--allow-empty] [-- PATHS]`: with paths, only those are committed even when
    /// other changes are staged.
    package static func commit(message: String, allowEmpty: Bool = false, paths: [String] = []) -> [String] {
        ["git", "commit", "-m", message] + (allowEmpty ? ["--allow-empty"] : []) + (paths.isEmpty ? [] : ["--"] + paths)
    }

    /// `command` (a git command line) with `options` (`-c key=value` pairs) before its subcommand, for that command
    /// alone.
    package static func configured(_ command: [String], _ options: [String]) -> [String] {
        guard command.first == "git", !options.isEmpty else { return command }
        return ["git"] + options + command.dropFirst()
    }

    /// Whether `git config --get KEY` has a value anywhere (repository, global, system, `GIT_CONFIG_*`).
    package static func configValue(_ key: String) -> [String] {
        ["git", "config", "--get", key]
    }

    /// `git tag [-a -m MESSAGE] [-f] NAME [REF]`: annotated when there is a message.
    package static func tag(_ name: String, message: String? = nil, ref: String? = nil, force: Bool = false) -> [String] {
        var arguments = ["git", "tag"]
        if let message { arguments += ["-a", "-m", message] }
        if force { arguments.append("-f") }
        arguments.append(name)
        if let ref { arguments.append(ref) }
        return arguments
    }

    /// `git push [-u] [--force-with-lease] [--tags] REMOTE REFS…`.
    package static func push(remote: String, refs: [String], setUpstream: Bool = false, tags: Bool = false, force: Bool = false) -> [String] {
        var arguments = ["git", "push"]
        if setUpstream { arguments.append("-u") }
        if force { arguments.append("--force-with-lease") }
        if tags { arguments.append("--tags") }
        return arguments + [remote] + refs
    }

    /// Exits 0 when the branch exists, 1 when it does not.
    package static func branchExists(_ name: String) -> [String] {
        ["git", "rev-parse", "--verify", "--quiet", "refs/heads/\(name)"]
    }

    /// Exits 0 when the tag exists, 1 when it does not.
    package static func tagExists(_ name: String) -> [String] {
        ["git", "rev-parse", "--verify", "--quiet", "refs/tags/\(name)"]
    }

    /// Prints the current branch name.
    package static let currentBranch = ["git", "rev-parse", "--abbrev-ref", "HEAD"]
    /// Prints the commit `HEAD` points at.
    package static let head = ["git", "rev-parse", "HEAD"]
    /// Prints the number of commits on `HEAD`.
    package static let commitCount = ["git", "rev-list", "--count", "HEAD"]
    /// Succeeds inside a work tree.
    package static let isRepository = ["git", "rev-parse", "--is-inside-work-tree"]
    /// Prints the URL of a remote; fails when there is no such remote.
    package static func remoteURL(_ remote: String) -> [String] {
        ["git", "remote", "get-url", remote]
    }

    /// Prints a remote's URL as configured, before `url.<base>.insteadOf` rewriting (which `get-url` applies): the
    /// repository the remote names, not where this machine fetches it from.
    package static func configuredRemoteURL(_ remote: String) -> [String] {
        ["git", "config", "--get", "remote.\(remote).url"]
    }

    /// Whether `name` is a usable branch or tag name (the rules of `git check-ref-format` that matter here).
    package static func isValidRefName(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("-"), !name.hasPrefix("/"), !name.hasSuffix("/"), !name.hasSuffix("."),
            !name.hasSuffix(".lock"), !name.contains(".."), !name.contains("//"), !name.contains("@{"), name != "@"
        else { return false }
        let forbidden: Set<Character> = [" ", "~", "^", ":", "?", "*", "[", "\\", "\t", "\n", "\u{7f}"]
        return !name.contains { forbidden.contains($0) || ($0.asciiValue.map { $0 < 32 } ?? false) }
            && !name.split(separator: "/").contains { $0.hasPrefix(".") }
    }
}
