/// A `steps` entry.
public struct StepDefinition: Sendable {
    public var index: Int
    public var id: String
    public var uses: String
    public var needs: [String]
    /// The `with` object; `{}` when absent.
    public var with: JSONNode
    public var when: Condition?
    public var gate: Bool
    public var always: Bool
    public var retries: Int
    /// Seconds before the first retry; doubled for each further one.
    public var retryDelay: Double
    /// Seconds, or nil for no limit.
    public var timeout: Double?
    public var continueOnError: Bool
    /// `skip_if`: a template of step outputs (`${steps.bump.outputs.shipped}`) resolved when the step is about to
    /// start; `true` skips it. The one condition known only at run time (``when`` is decided before anything runs).
    public var skipIf: JSONNode? = nil
    /// The runner the step needs when exported to a CI engine: its `runs_on`, else what its `when` implies, else the
    /// pipeline's (see ``Runner``).
    public var runner: Runner = .fallback
    public var location: SourceLocation
    public var path: JSONPath
    /// Where each `needs` entry was written.
    public var needsLocations: [SourceLocation]
    /// For an `xcode.export` whose `profiles` the loader defaulted (``PipelineLoader/defaultExportProfiles(_:)``), the
    /// installing steps it names: the planner keeps those that run (a pipeline may sign one profile with
    /// `signing.profile` and another with `signing.sync`).
    public var defaultedProfileInstallers: [String] = []

    /// The strings of the step that may hold references, with their JSON paths: its `with` object and its `skip_if`.
    public func forEachTemplate(_ body: (String, JSONNode, JSONPath) -> Void) {
        forEachString(in: with, path: path.appending("with"), body)
        if let skipIf { forEachString(in: skipIf, path: path.appending("skip_if"), body) }
    }
}
