import ReleaseSupport

/// A JSON value with the position it was read from, so every error can name file:line:column.
package struct JSONNode: Sendable, Equatable {
    /// The value. Objects keep their members in file order.
    package indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// A number with its text as written, so integers round-trip exactly.
        case number(Double, text: String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    /// One `"key": value` pair of an object, with the key's own position.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var keyLocation: SourceLocation
        package var value: JSONNode

        package init(key: String, keyLocation: SourceLocation, value: JSONNode) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    package var value: Value
    package var location: SourceLocation

    package init(_ value: Value, at location: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.value = value
        self.location = location
    }

    /// The members when this is an object.
    package var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The member named `key` when this is an object.
    package subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    /// The string when this is a string.
    package var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// A short rendering of the value for error messages: strings quoted, containers summarised.
    package var preview: String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(_, let text): return text
        case .string(let text):
            return "'\(Echo.text(text, limit: 60))'"
        case .array(let items): return "an array of \(items.count)"
        case .object: return "an object"
        }
    }

    /// What was found, for "expected X, found …" messages: `a string 'yes'`, `an array of 2 items`, `an object`.
    package var found: String {
        switch value {
        case .array(let items): return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        case .null: return "null"
        default: return "\(typeName) \(preview)"
        }
    }

    /// The JSON type's name for error messages.
    package var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Plain Foundation-free rendering as compact JSON text.
    package var jsonText: String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(_, let text): return text
        case .string(let text): return JSONNode.quote(text)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONNode.quote($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal.
    package static func quote(_ text: String) -> String {
        "\"" + JSONEscape.string(text) + "\""
    }
}
