import Foundation
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// Human output on standard error: colour and a live status line on a terminal, plain timestamped lines
/// otherwise (CI logs, files).
package final class ConsoleReporter: RunReporter {
    /// How to draw.
    package enum Style: Sendable {
        /// A terminal: colour, symbols, a status line with the running steps and progress.
        case terminal
        /// Plain lines, each with a UTC timestamp.
        case plain
    }

    private let style: Style
    /// Whether a terminal gets colour (`NO_COLOR` says no).
    private let colour: Bool
    /// Whether plain lines start with a UTC timestamp (GitHub Actions stamps every line itself).
    private let timestamps: Bool
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Date
    private let state = Mutex<State>(State())

    /// Holds the ticker's timer. `@unchecked Sendable`: the timer is created, resumed and cancelled only while
    /// `ticker`'s lock is held, and DispatchSource itself is thread-safe for those calls.
    private final class Ticker: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }
    private let ticker = Mutex<Ticker?>(nil)

    private struct State {
        var running: [String: Date] = [:]
        var progress: [String: (done: Int64, total: Int64?, unit: ProgressUnit, started: Date, lastPrinted: Int)] = [:]
        var statusShown = false
        /// Steps whose preflight problem is printed already: their result does not say it again.
        var preflightReported: Set<String> = []
    }

    /// - Parameters:
    ///   - colour: on a terminal, whether to paint (false when `NO_COLOR` is set).
    ///   - timestamps: in plain style, whether each line starts with its UTC time.
    package init(
        style: Style, colour: Bool = true, timestamps: Bool = true,
        write: @escaping @Sendable (String) -> Void = Terminal.writeError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.style = style
        self.colour = colour
        self.timestamps = timestamps
        self.write = write
        self.clock = clock
    }

    package func report(_ event: RunEvent) {
        if style == .terminal { manageTicker(event) }
        state.withLock { state in
            var text = ""
            handle(event, &state, &text)
            if style == .terminal {
                let clear = state.statusShown ? "\r\u{1B}[K" : ""
                let status = statusLine(state)
                state.statusShown = !status.isEmpty
                if !text.isEmpty || !status.isEmpty || !clear.isEmpty { write(clear + text + status) }
            } else if !text.isEmpty {
                write(text)
            }
        }
    }

    /// On a terminal the status line's clocks tick twice a second while steps run, even when they print nothing.
    private func manageTicker(_ event: RunEvent) {
        switch event {
        case .runStarted:
            ticker.withLock { current in
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
                timer.setEventHandler { [weak self] in self?.redrawStatus() }
                timer.resume()
                current = Ticker(timer)
            }
        case .runFinished:
            ticker.withLock { current in
                current?.timer.cancel()
                current = nil
            }
        default:
            break
        }
    }

    private func redrawStatus() {
        state.withLock { state in
            guard state.statusShown || !state.running.isEmpty else { return }
            let status = statusLine(state)
            write((state.statusShown ? "\r\u{1B}[K" : "") + status)
            state.statusShown = !status.isEmpty
        }
    }

    // MARK: Events

    private func handle(_ event: RunEvent, _ state: inout State, _ out: inout String) {
        switch event {
        case .runStarted(let pipeline, let file, let profile, let reason, let branch, let dryRun, let steps):
            line(&out, bold("release") + ": \(pipeline) (\(file))\(dryRun ? " — " + yellow("dry run: nothing will be changed") : "")")
            line(&out, "  branch:  \(branch ?? "(unknown)")")
            line(&out, "  profile: \(profile ?? "(none)") (\(reason))")
            line(&out, "  steps:   \(steps.count) to run")
        case .preflightFailed(let step, let message):
            state.preflightReported.insert(step)
            line(&out, red("✘") + " preflight: \(step): " + indentContinuation(message))
        case .stepStarted(let step, let kind, let attempt):
            state.running[step] = clock()
            line(&out, cyan("▶") + " \(step) (\(kind))" + (attempt > 1 ? " — attempt \(attempt)" : ""))
        case .step(let step, let stepEvent):
            switch stepEvent {
            case .command(let commandLine):
                line(&out, dim("  \(step) $ ") + commandLine)
            case .log(let text, _):
                line(&out, dim("  \(step) │ ") + text)
            case .warning(let text):
                line(&out, yellow("  \(step) warning: ") + text)
            case .progress(let done, let total, let unit):
                let started = state.progress[step]?.started ?? clock()
                let lastPrinted = state.progress[step]?.lastPrinted ?? -1
                state.progress[step] = (done, total, unit, started, lastPrinted)
                if style == .plain, let total, total > 0 {
                    let decile = Int(Double(done) / Double(total) * 10)
                    if decile > lastPrinted {
                        state.progress[step]?.lastPrinted = decile
                        line(&out, "  \(step): \(progressText(done: done, total: total, unit: unit, started: started))")
                    }
                }
            }
        case .stepRetrying(let step, let attempt, let delay, let message):
            line(&out, yellow("↻") + " \(step): attempt \(attempt) failed: \(message); retrying in \(DurationFormat.string(seconds: delay))")
        case .stepFinished(let result):
            state.running[result.id] = nil
            state.progress[result.id] = nil
            out += finishedLines(result, reported: state.preflightReported.contains(result.id))
        case .teardownFinished(let step, let description, let error):
            if let error {
                line(&out, red("✘") + " teardown \(step): \(description): " + indentContinuation(error))
            } else {
                line(&out, green("↺") + " teardown \(step): \(description)")
            }
        case .runFinished(let result):
            out += summary(result)
        }
    }

    /// - Parameter reported: whether the step's preflight problem was printed already (it is not repeated).
    private func finishedLines(_ result: StepResult, reported: Bool = false) -> String {
        var out = ""
        let duration = DurationFormat.string(seconds: result.duration)
        switch result.status {
        case .succeeded:
            line(&out, green("✔") + " \(result.id) " + dim(duration))
        case .resumed:
            line(&out, green("✔") + " \(result.id) " + dim("(done in the previous run)"))
        case .planned:
            line(&out, cyan("◇") + " \(result.id) (\(result.kind)) would:")
            if result.effects.isEmpty { line(&out, dim("    change nothing")) }
            for effect in result.effects {
                for text in Self.describe(effect) {
                    for part in text.split(separator: "\n", omittingEmptySubsequences: false) { line(&out, "    " + part) }
                }
            }
            if let message = result.message { line(&out, dim("    note: \(message)")) }
        case .skipped:
            line(&out, dim("○ \(result.id) skipped: \(result.message ?? "")"))
        case .blocked:
            let message = result.message ?? ""
            line(&out, yellow("⊘") + " \(result.id) " + (message.hasPrefix("blocked") ? message : "blocked: \(message)"))
        case .cancelled:
            line(&out, yellow("⊘") + " \(result.id) \(result.message ?? "cancelled")")
        case .waiting:
            line(&out, cyan("⏸") + " \(result.id) waiting: " + indentContinuation(result.message ?? ""))
        case .failed where result.attempts == 0 && reported:
            line(&out, red("✘") + " \(result.id) not started: its preflight failed (above)")
        case .failed where result.attempts == 0:
            // Found by preflight (or by a dry run's checks): it never started, so no duration to report.
            line(
                &out,
                red("✘") + " \(result.id) " + (result.message?.hasPrefix("not started") == true ? "" : "not started: ")
                    + indentContinuation(result.message ?? ""))
        case .failed, .ignoredFailure, .rejected:
            let what = result.status == .rejected ? "rejected the release" : result.status == .ignoredFailure ? "failed (continue_on_error)" : "failed"
            line(&out, red("✘") + " \(result.id) \(what) after \(duration): " + indentContinuation(result.message ?? ""))
        }
        return out
    }

    private func summary(_ result: RunResult) -> String {
        var out = ""
        line(&out, "")
        let width = max(4, result.steps.map(\.id.count).max() ?? 4)
        line(&out, bold("STEP".padding(toLength: width, withPad: " ", startingAt: 0) + "  STATUS            DURATION"))
        for step in result.steps {
            let status = step.status.label.padding(toLength: 16, withPad: " ", startingAt: 0)
            let ran = [.succeeded, .failed, .rejected, .ignoredFailure].contains(step.status) && (step.attempts > 0 || step.status != .failed)
            let duration = ran ? DurationFormat.string(seconds: step.duration) : "-"
            line(&out, step.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + colour(step.status, status) + "  " + duration)
        }
        let verdict: String
        switch result.exitCode {
        case ExitCodes.success where !result.waiting.isEmpty:
            verdict = cyan(
                "release waiting (not failed): " + result.waiting.map { "\($0.id): \($0.message ?? "")" }.joined(separator: "; ")
                    + "; run the same pipeline on this commit again (--resume) to continue")
        case ExitCodes.success: verdict = green(result.dryRun ? "dry run finished: nothing was changed" : "release finished")
        case ExitCodes.gateRejected: verdict = red("a validation gate rejected the release")
        case ExitCodes.interrupted: verdict = yellow("interrupted")
        default: verdict = red(result.preflightFailed ? "preflight found problems; nothing was run" : "a step failed")
        }
        line(&out, "")
        line(&out, "\(verdict) in \(DurationFormat.string(seconds: result.duration)) (exit \(result.exitCode))")
        return out
    }

    /// Lines describing one planned effect.
    package static func describe(_ effect: PlannedEffect) -> [String] {
        switch effect {
        case .command(let argv, let directory):
            return ["run: " + ShellQuoting.commandLine(argv) + (directory.map { "  (in \($0))" } ?? "")]
        case .writeFile(let path, let diff, let detail):
            var lines = ["write: \(path)" + (detail.map { " (\($0))" } ?? "")]
            if let diff { lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
            return lines
        case .delete(let path): return ["delete: \(path)"]
        case .move(let from, let to): return ["move: \(from) -> \(to)"]
        case .request(let method, let url, let detail): return ["request: \(method) \(url)" + (detail.map { " (\($0))" } ?? "")]
        case .note(let text): return [text]
        }
    }

    // MARK: Status line

    private func statusLine(_ state: State) -> String {
        guard style == .terminal, !state.running.isEmpty else { return "" }
        let now = clock()
        let parts = state.running.sorted { $0.value < $1.value }.map { id, started -> String in
            if let progress = state.progress[id], let total = progress.total, total > 0 {
                return "\(id) \(bar(Double(progress.done) / Double(total))) \(progressText(done: progress.done, total: total, unit: progress.unit, started: progress.started))"
            }
            return "\(id) \(DurationFormat.string(seconds: now.timeIntervalSince(started)))"
        }
        let text = "… " + parts.joined(separator: " · ")
        let width = Terminal.width - 1
        return dim(text.count > width ? String(text.prefix(width - 1)) + "…" : text)
    }

    private func bar(_ fraction: Double) -> String {
        let cells = 20
        let filled = Int((max(0, min(1, fraction)) * Double(cells)).rounded(.down))
        return "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: cells - filled) + "]"
    }

    private func progressText(done: Int64, total: Int64, unit: ProgressUnit, started: Date) -> String {
        let percent = Int(Double(done) / Double(max(total, 1)) * 100)
        guard unit == .bytes else { return "\(percent)% (\(done) of \(total))" }
        let elapsed = max(clock().timeIntervalSince(started), 0.001)
        let rate = Double(done) / elapsed
        return "\(percent)% (\(ByteFormat.size(done)) of \(ByteFormat.size(total)), \(ByteFormat.rate(rate)))"
    }

    // MARK: Text

    private func line(_ out: inout String, _ text: String) {
        if style == .plain && timestamps {
            out += Timestamp.iso8601(clock()) + " " + text + "\n"
        } else {
            out += text + "\n"
        }
    }

    private func indentContinuation(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\n    ")
    }

    private func paint(_ code: String, _ text: String) -> String {
        style == .terminal && colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    private func bold(_ text: String) -> String { paint("1", text) }
    private func dim(_ text: String) -> String { paint("2", text) }
    private func red(_ text: String) -> String { paint("31", text) }
    private func green(_ text: String) -> String { paint("32", text) }
    private func yellow(_ text: String) -> String { paint("33", text) }
    private func cyan(_ text: String) -> String { paint("36", text) }

    private func colour(_ status: StepStatus, _ text: String) -> String {
        switch status {
        case .succeeded, .resumed: return green(text)
        case .failed, .rejected: return red(text)
        case .ignoredFailure, .blocked, .cancelled: return yellow(text)
        case .planned, .waiting: return cyan(text)
        case .skipped: return dim(text)
        }
    }
}
