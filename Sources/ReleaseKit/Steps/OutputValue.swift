import ReleaseSupport

/// A typed step output: what `${steps.ID.outputs.KEY}` refers to.
package enum OutputValue: Sendable, Equatable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case path(String)
    case list([OutputValue])

    /// The text substituted into a longer string. Lists join with a space.
    package var text: String {
        switch self {
        case .string(let value), .path(let value): return value
        case .number(let value): return NumberText.string(value)
        case .bool(let value): return value ? "true" : "false"
        case .list(let values): return values.map(\.text).joined(separator: " ")
        }
    }

    /// The type's name, as shown in documentation and reports.
    package var typeName: String {
        switch self {
        case .string: return "string"
        case .number: return "number"
        case .bool: return "bool"
        case .path: return "path"
        case .list: return "list"
        }
    }
}
