/// A `steps` entry.
package struct StepDefinition: Sendable {
    package var index: Int
    package var id: String
    package var uses: String
    package var needs: [String]
    /// The `with` object; `{}` when absent.
    package var with: JSONNode
    package var when: Condition?
    package var gate: Bool
    package var always: Bool
    package var retries: Int
    /// Seconds before the first retry; doubled for each further one.
    package var retryDelay: Double
    /// Seconds, or nil for no limit.
    package var timeout: Double?
    package var continueOnError: Bool
    /// `skip_if`: a template of step outputs (`${steps.bump.outputs.shipped}`) resolved when the step is about to
    /// start; `true` skips it. The one condition known only at run time (``when`` is decided before anything runs).
    package var skipIf: JSONNode? = nil
    /// The runner the step needs when exported to a CI engine: its `runs_on`, else what its `when` implies, else the
    /// pipeline's (see ``Runner``).
    package var runner: Runner = .fallback
    package var location: SourceLocation
    package var path: JSONPath
    /// Where each `needs` entry was written.
    package var needsLocations: [SourceLocation]
    /// For an `xcode.export` whose `profiles` the loader defaulted (``PipelineLoader/defaultExportProfiles(_:)``), the
    /// installing steps it names: the planner keeps those that run (a pipeline may sign one profile with
    /// `signing.profile` and another with `signing.sync`).
    package var defaultedProfileInstallers: [String] = []

    /// The strings of the step that may hold references, with their JSON paths: its `with` object and its `skip_if`.
    package func forEachTemplate(_ body: (String, JSONNode, JSONPath) -> Void) {
        forEachString(in: with, path: path.appending("with"), body)
        if let skipIf { forEachString(in: skipIf, path: path.appending("skip_if"), body) }
    }
}
