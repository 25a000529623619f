/// A pipeline file as written, checked for structure: format version 1.
public struct PipelineDefinition: Sendable {
    public var file: String
    public var version: Int
    public var name: String
    public var variables: [VariableDefinition]
    public var profiles: [ProfileDefinition]
    public var steps: [StepDefinition]

    public func step(_ id: String) -> StepDefinition? {
        steps.first { $0.id == id }
    }
}

/// A `variables` entry: its value is a template that may refer to other variables.
public struct VariableDefinition: Sendable {
    public var name: String
    public var value: String
    public var location: SourceLocation
    public var path: JSONPath
}

/// A `profiles` entry.
public struct ProfileDefinition: Sendable {
    public var name: String
    public var when: Condition?
    public var isDefault: Bool
    public var variables: [VariableDefinition]
    public var location: SourceLocation
}

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
    public var location: SourceLocation
    public var path: JSONPath
    /// Where each `needs` entry was written.
    public var needsLocations: [SourceLocation]
}
