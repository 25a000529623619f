import Foundation
import ReleaseApple
import ReleaseSupport

extension StepContext {
    /// The warning a dry run gives for an Apple tool this machine lacks.
    static func needsXcodeWarning(_ command: String) -> String {
        "needs Xcode: run on macOS ('\(command)' is not on PATH here; its command is shown as a Mac would run it)"
    }

    /// Checks that `command` can be run here, for a step's `verify`.
    ///
    /// A dry run (`--dry-run`, `plan`) only shows what an Apple tool (``AppleTools``) would do, so one missing here (a
    /// Linux laptop, a Mac without Xcode) is a warning, "needs Xcode: run on macOS", and the step still lists its
    /// commands with their real arguments. When the step would really run the tool (a real run, or a read-only step a
    /// dry run runs: `reallyRuns`), a missing tool fails the step as before.
    /// - Parameters:
    ///   - command: the executable's name or path.
    ///   - directory: the folder it would run in (relative paths resolve there); the working directory when nil.
    ///   - environment: the environment it would get (its `PATH` is searched); the context's when nil.
    ///   - purpose: said after "command not found: 'x'", such as "(xcode.archive runs on macOS with Xcode)".
    /// - Throws: ``StepError/failed(_:)`` "command not found: 'x'" when it must run here and cannot.
    package func requireCommand(
        _ command: String, directory: String? = nil, environment: [String: String]? = nil,
        purpose: String? = nil, reallyRuns: Bool = false
    ) throws {
        let environment = environment ?? self.environment
        if ProcessRunner.resolveExecutable(command, directory: directory ?? workingDirectory, environment: environment) != nil { return }
        if isDryRun && !reallyRuns && AppleTools.isAppleTool(command) {
            warn(Self.needsXcodeWarning(command))
            return
        }
        if let hint = AppleTools.installHint(command) {
            // A project generator a Mac build needs: a dry run shows its command; a real run says how to get it.
            if isDryRun && !reallyRuns {
                warn("\(command) not on PATH here: \(hint) (its command is shown as it would run)")
                return
            }
            throw StepError.failed("\(command) not on PATH: \(hint)")
        }
        throw StepError.failed("command not found: '\(command)'" + (purpose.map { " (\($0))" } ?? ""))
    }
}
