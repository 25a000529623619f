import Foundation
import ReleasePipeline
import ReleasePlanning

/// Why a command's service stopped: the exit code and its cause, the way swift-subprocess's `SubprocessError` pairs a
/// code with the error beneath it. The services (``RunService``, ``ExportService``, ``InitService``) throw nothing
/// else; the executable prints the cause and exits with the code.
package struct CommandFailure: Error, Sendable {
    /// What went wrong, for the executable to print.
    package enum Cause: Sendable {
        /// A mistake on the command line: `error: MESSAGE` (exit 64).
        case usage(String)
        /// An invalid pipeline file: every problem, the count, then the hint if any (exit 65).
        case invalidPipeline([Diagnostic], hint: String?)
        /// What the command could not do, said as `error: MESSAGE`.
        case failed(String)
        /// Already said on standard error (a run's summary and aftermath): only the exit code is left.
        case reported
        /// An error of a layer below, printed the way the command line prints any error.
        case underlying(any Error)
    }

    /// The process's exit status (``ExitCodes``).
    package var code: Int32
    package var cause: Cause

    package init(code: Int32, cause: Cause) {
        self.code = code
        self.cause = cause
    }

    /// What the command line prints for this failure on standard error: `error: …`, or every pipeline problem (as
    /// GitHub annotations when `annotations`), their count and the hint; nil when there is nothing more to say or the
    /// error beneath is printed the way the command line prints any error.
    package func text(annotations: Bool) -> String? {
        switch cause {
        case .usage(let message), .failed(let message):
            return "error: \(message)\n"
        case .invalidPipeline(let diagnostics, let hint):
            return Diagnostic.report(diagnostics, annotations: annotations) + (hint.map { $0 + "\n" } ?? "")
        case .reported, .underlying:
            return nil
        }
    }

    /// A command-line mistake: exit 64.
    package static func usage(_ message: String) -> CommandFailure {
        CommandFailure(code: ExitCodes.usage, cause: .usage(message))
    }

    /// What the command could not do: exit 1.
    package static func failed(_ message: String) -> CommandFailure {
        CommandFailure(code: ExitCodes.stepFailed, cause: .failed(message))
    }

    /// An invalid pipeline: exit 65.
    package static func invalidPipeline(_ diagnostics: [Diagnostic], hint: String? = nil) -> CommandFailure {
        CommandFailure(code: ExitCodes.invalidPipeline, cause: .invalidPipeline(diagnostics, hint: hint))
    }

    /// Wraps what a layer below threw: a ``UsageError`` is a usage failure, a failure stays itself, anything else is
    /// passed on as it is (and printed as the command line prints any error).
    package static func from(_ error: any Error) -> CommandFailure {
        switch error {
        case let failure as CommandFailure: return failure
        case let usage as UsageError: return .usage(usage.message)
        default: return CommandFailure(code: ExitCodes.stepFailed, cause: .underlying(error))
        }
    }
}
