import ReleasePlanning

/// A read-only report on some steps of a planned pipeline (`release signing status`, `release rollout status`):
/// assessed from a dry-run plan, printed for people or as JSON, failing when a step could not be read.
package protocol PipelineStatus: Sendable {
    /// Looks at the steps of `plan` the report is about, in order.
    static func assess(_ plan: Plan) async -> Self
    /// Whether every step could be read.
    var succeeded: Bool { get }
    /// The report for people.
    var text: String { get }
    /// The report for programs.
    var json: [String: Any] { get }
}
