import Foundation
import Synchronization

@testable import ReleaseExecution

/// A terminal for the command services (``RunService``, ``ExportService``, ``InitService``) that records what they
/// say and answers questions from a script.
final class RecordingConsole: InitConsole {
    let isInteractive: Bool
    private let recorded = Mutex<(errors: String, output: String, answers: [String])>(("", "", []))

    init(interactive: Bool = false, answers: [String] = []) {
        isInteractive = interactive
        recorded.withLock { $0.answers = answers }
    }

    /// Human output (standard error).
    var errors: String { recorded.withLock { $0.errors } }
    /// Program results (standard output).
    var output: String { recorded.withLock { $0.output } }

    func write(_ text: String) { recorded.withLock { $0.errors += text } }
    func output(_ text: String) { recorded.withLock { $0.output += text } }
    func readAnswer() -> String? { recorded.withLock { $0.answers.isEmpty ? nil : $0.answers.removeFirst() } }
}
