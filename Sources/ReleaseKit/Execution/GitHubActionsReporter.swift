import Foundation
import Synchronization

/// Output for GitHub Actions (`GITHUB_ACTIONS=true`): each step's output folded in a `::group::` (buffered, so
/// parallel steps do not interleave inside a group), `::error` annotations for failures, and the summary.
public final class GitHubActionsReporter: RunReporter {
    private let write: @Sendable (String) -> Void
    private let plain: ConsoleReporter
    private let buffers = Mutex<[String: [String]]>([:])

    public init(write: @escaping @Sendable (String) -> Void = Terminal.writeError) {
        self.write = write
        self.plain = ConsoleReporter(style: .plain, write: write)
    }

    /// `::error` escapes: `%`, CR and LF in messages; also `:` and `,` in properties.
    public func report(_ event: RunEvent) {
        switch event {
        case .runStarted, .runFinished:
            plain.report(event)
        case .preflightFailed(let step, let message):
            write("::error title=\(WorkflowCommand.escapeProperty("preflight: step \(step)"))::\(WorkflowCommand.escapeData(message))\n")
        case .stepStarted(let step, let kind, let attempt):
            append(step, "▶ \(step) (\(kind))" + (attempt > 1 ? " — attempt \(attempt)" : ""))
        case .step(let step, let stepEvent):
            switch stepEvent {
            case .command(let line): append(step, "$ \(line)")
            case .log(let line, _): append(step, line)
            case .warning(let line): append(step, "::warning title=\(WorkflowCommand.escapeProperty("step \(step)"))::\(WorkflowCommand.escapeData(line))")
            case .progress: break
            }
        case .stepRetrying(let step, let attempt, let delay, let message):
            append(step, "attempt \(attempt) failed: \(message); retrying in \(DurationFormat.string(seconds: delay))")
        case .stepFinished(let result):
            let lines = buffers.withLock { $0.removeValue(forKey: result.id) } ?? []
            var out = ""
            if !lines.isEmpty || result.status == .planned {
                out += "::group::\(result.id) (\(result.kind)): \(result.status.label) \(DurationFormat.string(seconds: result.duration))\n"
                out += lines.map { $0 + "\n" }.joined()
                for effect in result.effects { out += ConsoleReporter.describe(effect).map { "  \($0)\n" }.joined() }
                out += "::endgroup::\n"
            } else {
                out += "\(result.id) (\(result.kind)): \(result.status.label)\(result.message.map { ": \($0)" } ?? "")\n"
            }
            if [.failed, .rejected].contains(result.status) {
                let what = result.status == .rejected ? "gate \(result.id) rejected the release" : "step \(result.id) failed"
                out += "::error title=\(WorkflowCommand.escapeProperty(what))::\(WorkflowCommand.escapeData(result.message ?? what))\n"
            }
            write(out)
        case .teardownFinished(let step, let description, let error):
            if let error {
                write("::error title=\(WorkflowCommand.escapeProperty("teardown of step \(step) failed"))::\(WorkflowCommand.escapeData("\(description): \(error)"))\n")
            } else {
                write("teardown \(step): \(description)\n")
            }
        }
    }

    private func append(_ step: String, _ line: String) {
        buffers.withLock { $0[step, default: []].append(line) }
    }
}
