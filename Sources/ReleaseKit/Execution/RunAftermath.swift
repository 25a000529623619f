import Foundation
import ReleaseSteps
import ReleaseSupport

/// What a run that did not finish left behind, and how to pick it up: the last lines of a failed, rejected or
/// interrupted run. A plain re-run converges too (`version.bump` keeps the bump it finds), but `--resume` also
/// skips the steps that already succeeded.
package struct RunAftermath: Sendable, Equatable {
    /// One step that finished and changed something, with what it changed: `Demo.xcodeproj/project.pbxproj`,
    /// `commit 1a2b3c4d5e6f`, `tag v7.1.4`.
    package struct Change: Sendable, Equatable {
        /// The step id.
        package var step: String
        /// The step kind.
        package var kind: String
        /// Files it wrote, then the git objects it made.
        package var items: [String]
    }

    /// The steps that finished and what each left changed, in run order.
    package var changes: [Change]
    /// The command that resumes the run.
    package var resumeCommand: String

    /// The aftermath of `result`; `nil` when there is nothing to resume (success, dry run, nothing ran).
    /// - Parameters:
    ///   - result: the run.
    ///   - command: the argv that resumes it: the same pipeline, profile and variables, with `--resume`.
    ///   - workingDirectory: files inside it are shown relative to it.
    package init?(_ result: RunResult, resumeCommand command: [String], workingDirectory: String? = nil) {
        guard !result.dryRun, !result.preflightFailed, result.exitCode != ExitCodes.success else { return nil }
        var changes: [Change] = []
        for step in result.steps where step.status == .succeeded && !step.gate {
            let items = Self.items(step).map { item in
                guard let base = workingDirectory.map({ $0.hasSuffix("/") ? $0 : $0 + "/" }), item.hasPrefix(base) else { return item }
                return String(item.dropFirst(base.count))
            }
            if !items.isEmpty { changes.append(Change(step: step.id, kind: step.kind, items: items)) }
        }
        self.changes = changes
        resumeCommand = ShellQuoting.commandLine(command)
    }

    /// Files a step's outputs name, then the commit, tag or branch a `git.*` step made.
    static func items(_ step: StepResult) -> [String] {
        var files: [String] = []
        func collect(_ value: OutputValue) {
            switch value {
            case .path(let path): if !files.contains(path) { files.append(path) }
            case .list(let values): values.forEach(collect)
            case .string, .number, .bool: break
            }
        }
        for name in step.outputs.keys.sorted() { collect(step.outputs[name]!) }
        for artifact in step.artifacts where !files.contains(artifact.path) { files.append(artifact.path) }
        var git: [String] = []
        if step.kind.hasPrefix("git.") {
            if let sha = step.outputs["sha"]?.text, !sha.isEmpty { git.append("commit \(sha.prefix(12))") }
            if let tag = step.outputs["tag"]?.text, !tag.isEmpty { git.append("tag \(tag)") }
            if let branch = step.outputs["branch"]?.text, !branch.isEmpty { git.append("branch \(branch)") }
        }
        return files + git
    }

    /// The lines the console prints after the run's summary.
    package var text: String {
        var out = ""
        if changes.isEmpty {
            out += "no finished step left a file, commit or tag changed\n"
        } else {
            out += "left changed by the steps that finished:\n"
            for change in changes {
                out += "  \(change.step) (\(change.kind)): \(change.items.joined(separator: ", "))\n"
            }
        }
        out += "to resume once the cause is fixed (steps that succeeded are skipped): \(resumeCommand)\n"
        return out
    }
}
