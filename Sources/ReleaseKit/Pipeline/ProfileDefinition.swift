/// A `profiles` entry.
public struct ProfileDefinition: Sendable {
    public var name: String
    public var when: Condition?
    public var isDefault: Bool
    public var variables: [VariableDefinition]
    public var location: SourceLocation
}
