import Foundation
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// Output for GitHub Actions (`GITHUB_ACTIONS=true`): every line as it comes, so a 20-minute build shows its
/// progress live.
///
/// A step that runs alone gets a `::group::` that opens when it starts and closes when it ends, its lines streaming
/// inside. Groups cannot nest or interleave, so while steps run in parallel their lines are prefixed with the step
/// (`[zip] …`) outside any group; a group open when a second step starts is closed first. Failures become `::error`
/// annotations the moment they are known (preflight problems included). No line carries a timestamp of ours:
/// Actions stamps every line itself, so all of them read the same.
package final class GitHubActionsReporter: RunReporter {
    private let write: @Sendable (String) -> Void
    private let plain: ConsoleReporter
    private let state = Mutex<State>(State())

    private struct State {
        /// Running steps in the order they started.
        var running: [String] = []
        /// The step whose group is open, if any.
        var group: String?
        /// Verdicts of steps that never ran (skipped, blocked), held while another step's group is open so they do
        /// not land inside it; written after its `::endgroup::`.
        var held = ""
        /// Steps whose preflight problem is an annotation already: their result does not repeat it.
        var preflightReported: Set<String> = []
    }

    package init(write: @escaping @Sendable (String) -> Void = Terminal.writeError) {
        self.write = write
        self.plain = ConsoleReporter(style: .plain, timestamps: false, write: write)
    }

    package func report(_ event: RunEvent) {
        state.withLock { state in
            switch event {
            case .runStarted, .runFinished:
                let out = closeGroup(&state)
                if !out.isEmpty { write(out) }
                plain.report(event)
            case .preflightFailed(let step, let message):
                state.preflightReported.insert(step)
                write(closeGroup(&state) + Self.error("preflight: step \(step)", message))
            case .stepStarted(let step, let kind, let attempt):
                let heading = "▶ \(step) (\(kind))" + (attempt > 1 ? " — attempt \(attempt)" : "")
                var out = ""
                if !state.running.contains(step) { state.running.append(step) }
                if state.running.count == 1 && state.group == nil {
                    state.group = step
                    out += "::group::\(heading)\n"
                } else {
                    out += closeGroup(&state) + "[\(step)] \(heading)\n"
                }
                write(out)
            case .step(let step, let stepEvent):
                switch stepEvent {
                case .command(let line): write(Self.lines(for: step, "$ \(line)", state))
                case .log(let line, _): write(Self.lines(for: step, line, state))
                case .warning(let line): write(Self.command("warning", "step \(step)", line))
                case .progress: break
                }
            case .stepRetrying(let step, let attempt, let delay, let message):
                write(Self.lines(for: step, "attempt \(attempt) failed: \(message); retrying in \(DurationFormat.string(seconds: delay))", state))
            case .stepFinished(let result):
                state.running.removeAll { $0 == result.id }
                var out = ""
                let inGroup = state.group == result.id
                let prefix = inGroup || state.running.isEmpty ? "" : "[\(result.id)] "
                var summary = "\(result.id) (\(result.kind)): \(result.status.label)"
                if result.attempts > 0 { summary += " \(DurationFormat.string(seconds: result.duration))" }
                if let message = result.message, ![.failed, .rejected].contains(result.status) { summary += ": \(message)" }
                var verdict = prefix + summary + "\n"
                for effect in result.effects { verdict += ConsoleReporter.describe(effect).map { "\(prefix)  \($0)\n" }.joined() }
                if inGroup {
                    out += verdict + closeGroup(&state)
                } else if state.group != nil {
                    state.held += verdict
                } else {
                    out += verdict
                }
                if [.failed, .rejected].contains(result.status) && !(result.attempts == 0 && state.preflightReported.contains(result.id)) {
                    let what =
                        result.status == .rejected
                        ? "gate \(result.id) rejected the release"
                        : result.attempts == 0 ? "step \(result.id) not started" : "step \(result.id) failed"
                    out += Self.error(what, result.message ?? what)
                }
                if result.status == .waiting, result.attempts > 0 {
                    out += Self.command("notice", "step \(result.id) is waiting", result.message ?? "waiting")
                }
                write(out)
            case .teardownFinished(let step, let description, let error):
                let out = closeGroup(&state)
                if let error {
                    write(out + Self.error("teardown of step \(step) failed", "\(description): \(error)"))
                } else {
                    write(out + "teardown \(step): \(description)\n")
                }
            }
        }
    }

    /// `::endgroup::` when a group is open; the empty string otherwise.
    private func closeGroup(_ state: inout State) -> String {
        guard state.group != nil else { return "" }
        state.group = nil
        defer { state.held = "" }
        return "::endgroup::\n" + state.held
    }

    /// A step's line: as it is inside its own group, prefixed with the step outside one. A multi-line text gets
    /// the prefix on every line, so no line loses its step.
    private static func lines(for step: String, _ text: String, _ state: State) -> String {
        let prefix = state.group == step ? "" : "[\(step)] "
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 + "\n" }.joined()
    }

    private static func error(_ title: String, _ message: String) -> String {
        command("error", title, message)
    }

    /// `::NAME title=…::message`, escaped as the runner expects: `%`, CR and LF in the message; also `:` and `,`
    /// in the title.
    private static func command(_ name: String, _ title: String, _ message: String) -> String {
        "::\(name) title=\(WorkflowCommand.escapeProperty(title))::\(WorkflowCommand.escapeData(message))\n"
    }
}
