/// A `variables` entry: its value is a template that may refer to other variables.
public struct VariableDefinition: Sendable {
    public var name: String
    public var value: String
    public var location: SourceLocation
    public var path: JSONPath
}
