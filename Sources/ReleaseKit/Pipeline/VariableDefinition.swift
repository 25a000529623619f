/// A `variables` entry: its value is a template that may refer to other variables.
package struct VariableDefinition: Sendable {
    package var name: String
    package var value: String
    package var location: SourceLocation
    package var path: JSONPath
}
