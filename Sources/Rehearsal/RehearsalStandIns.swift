import Foundation
import ReleaseSteps

extension Rehearsal: RunStandIns {}

/// What `release run` gives ``RunService`` for `--rehearse` and dry runs: a ``Rehearsal`` kept where asked (or in
/// its default place), and its placeholder secrets.
package struct RehearsalStandIns: RunStandInProvider {
    package init() {}

    package func start(storage: String?, directory: String, environment: [String: String], secrets: Set<String>, teamID: String?) throws
        -> any RunStandIns
    {
        try Rehearsal(storage: storage ?? Rehearsal.defaultStorage(in: directory), environment: environment, secrets: secrets, teamID: teamID)
    }

    package func fillPlaceholders(_ environment: inout [String: String], secrets: Set<String>) -> [String] {
        Rehearsal.fillPlaceholders(&environment, secrets: secrets)
    }
}
