import Foundation

/// The local stand-ins a rehearsal runs against (`release run --rehearse`): the Rehearsal module's servers, which sit
/// above this library, so the run service sees them through this protocol (declared beside ``ServiceEndpoints``,
/// which the stand-ins fill).
package protocol RunStandIns: Sendable {
    /// The run's environment with the credentials the stand-ins accept.
    var environment: [String: String] { get }
    /// Each service with a stand-in → the stand-in's base URL.
    var endpoints: [Service: String] { get }
    /// The secrets that got a placeholder no stand-in accepts (a certificate, a profile).
    var opaquePlaceholderSecrets: [String] { get }
    /// What the run talks to, for standard error before the first step.
    func header() -> String
    /// What the stand-ins received, for standard error after the run.
    func summary() -> String
    /// The summary as JSON values, for the `rehearsal_finished` event.
    func summaryFields() -> [String: Any]
    /// Stops every stand-in.
    func stop()
}

/// Starts ``RunStandIns`` and fills a dry run's placeholder secrets (the executable gives the Rehearsal module's).
package protocol RunStandInProvider: Sendable {
    /// Starts the stand-ins, keeping their state in `storage` (nil: their default place in `directory`).
    /// - Parameter secrets: the secrets the pipeline refers to; each one unset gets a placeholder.
    /// - Parameter teamID: the team the pipeline signs for, whose certificates and profiles App Store Connect's
    ///   stand-in issues (nil: its own).
    func start(storage: String?, directory: String, environment: [String: String], secrets: Set<String>, teamID: String?) throws
        -> any RunStandIns
    /// For a dry run, which sends nothing: a placeholder for every secret in `secrets` that `environment` lacks.
    /// - Returns: the names that got one, sorted.
    func fillPlaceholders(_ environment: inout [String: String], secrets: Set<String>) -> [String]
}
