/// A `profiles` entry.
package struct ProfileDefinition: Sendable {
    package var name: String
    package var when: Condition?
    package var isDefault: Bool
    package var variables: [VariableDefinition]
    package var location: SourceLocation
}
