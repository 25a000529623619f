import Foundation
import ReleaseSupport

/// A JSON value exchanged with an external step plugin: its `describe` answer, the options sent on standard
/// input and the values of the lines it prints.
package indirect enum PluginValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([PluginValue])
    /// Members in the order they were written (decoded objects come sorted by key).
    case object([(key: String, value: PluginValue)])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([PluginValue].self) {
            self = .array(items)
        } else {
            let members = try container.decode([String: PluginValue].self)
            self = .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        }
    }

    /// Parses one JSON text; nil when it is not JSON.
    package static func parse(_ text: String) -> PluginValue? {
        try? JSONDecoder().decode(PluginValue.self, from: Data(text.utf8))
    }

    package static func == (lhs: PluginValue, rhs: PluginValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> PluginValue? {
        if case .object(let members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The JSON type's name, as messages show it.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Compact JSON text, members in their order.
    package var json: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let value): return NumberText.string(value)
        case .string(let text): return "\"" + JSONEscape.string(text) + "\""
        case .array(let items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { "\"" + JSONEscape.string($0.key) + "\":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }
}
