import Foundation
import ReleaseSteps

/// What the engine tells reporters, in order. Every text in it is already masked.
package enum RunEvent: Sendable {
    case runStarted(pipeline: String, file: String, profile: String?, profileReason: String, branch: String?, dryRun: Bool, steps: [String])
    /// A step's `verify` failed before anything ran.
    case preflightFailed(step: String, message: String)
    case stepStarted(step: String, kind: String, attempt: Int)
    case step(String, StepEvent)
    case stepRetrying(step: String, attempt: Int, delay: TimeInterval, message: String)
    case stepFinished(StepResult)
    /// A step's teardown ran at the end of the run (`error` nil when it succeeded).
    case teardownFinished(step: String, description: String, error: String?)
    case runFinished(RunResult)
}
