import Foundation

/// Errors a step reports. Messages are lower-case with the offending value in quotes.
package enum StepError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option value is wrong: `(option, message)`.
    case invalidOption(String, String)
    /// The step failed; the message says why.
    case failed(String)
    /// A validation gate rejected the release; every problem it found.
    case rejected([String])
    /// A command exited with a non-zero status (kept as the step's exit status in the report).
    case exitStatus(Int32, command: String)
    /// A file the step needs is missing.
    case missingFile(path: String, option: String?)
    /// The step cannot run here and is skipped, not failed (a rehearsal without a stand-in for its service, a
    /// notification whose `on` does not match the run's outcome).
    case unavailable(String)
    /// The step waits on something outside that is not done yet (Apple processing the build, App Review) and its
    /// `wait` budget ran out: it ends *waiting*, not failed. The run exits 0, the steps after it wait too, and running
    /// the same pipeline on the same commit again continues from what the service says. The message says what for.
    case waiting(String)

    /// Throws ``invalidOption(_:_:)`` "must not be empty" for the first `(key, value)` whose value is blank.
    static func requireNonBlank(_ values: KeyValuePairs<String, String>) throws(StepError) {
        for (key, value) in values where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw StepError.invalidOption(key, "must not be empty")
        }
    }

    package var description: String {
        switch self {
        case .invalidOption(let option, let message): return "option '\(option)': \(message)"
        case .failed(let message): return message
        case .rejected(let problems):
            return problems.count == 1 ? problems[0] : problems.map { "- \($0)" }.joined(separator: "\n")
        case .exitStatus(let status, let command):
            return "'\(command)' exited with status \(status)"
        case .missingFile(let path, let option):
            if let option { return "option '\(option)': no such file or directory '\(path)'" }
            return "no such file or directory '\(path)'"
        case .unavailable(let reason): return reason
        case .waiting(let what): return what
        }
    }
}
