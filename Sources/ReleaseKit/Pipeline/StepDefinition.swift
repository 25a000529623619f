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
}
