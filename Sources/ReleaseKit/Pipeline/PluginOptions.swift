/// Checks a plugin step's `with` against the JSON Schema subset of its `describe` answer (``PluginSchema``) and
/// turns it into the JSON the plugin receives, with the same located messages as built-in options: wrong type,
/// missing required option, a value outside `enum`, a number outside `minimum`/`maximum` or not finite, and (under
/// `additionalProperties: false`) unknown keys for the caller to report with a did-you-mean.
///
/// Like ``OptionsDecoder``, numbers and booleans may be written as strings (interpolation produces text), and in
/// ``OptionsDecoder/Mode/validation`` a string holding `${...}` stands for any value.
struct PluginOptions {
    typealias Unknown = (path: JSONPath, location: SourceLocation, key: String, known: [String])

    let mode: OptionsDecoder.Mode
    private(set) var unknownKeys: [Unknown] = []

    init(mode: OptionsDecoder.Mode) {
        self.mode = mode
    }

    /// `node` checked against `schema` and converted.
    mutating func convert(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) throws(OptionsDecoder.Failure) -> PluginValue {
        if mode == .validation, case .string(let text) = node.value, Template.mayContainReferences(text) {
            return .string(text)
        }
        let value = try typed(node, schema: schema, at: path)
        if case .number(let number) = value {
            // `1e999` is infinity, `"nan"` NaN: neither can be written as JSON for the plugin.
            guard number.isFinite else { throw fail("expected a finite number, found \(node.preview)", node, path) }
            let minimum = schema.minimum ?? -.infinity, maximum = schema.maximum ?? .infinity
            if number < minimum || number > maximum {
                var key = "the value"
                if case .key(let name)? = path.components.last { key = "'\(name)'" }
                let range = switch (schema.minimum, schema.maximum) {
                case (let low?, let high?): OptionRange(low...high).text
                case (let low?, nil): "at least \(NumberText.string(low))"
                default: "at most \(NumberText.string(maximum))"
                }
                throw fail("\(key) must be \(range), found \(node.preview)", node, path)
            }
        }
        if let allowed = schema.allowed, !allowed.contains(value) {
            let words = allowed.map { $0.string ?? $0.json }.joined(separator: ", ")
            throw fail("'\(Echo.text(value.string ?? value.json))' is not one of \(words)", node, path)
        }
        return value
    }

    private mutating func typed(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) throws(OptionsDecoder.Failure) -> PluginValue {
        if schema.types.isEmpty { return try plain(node, schema: schema, at: path) }
        for type in schema.types {
            if let value = try scalar(node, as: type, schema: schema, at: path) { return value }
        }
        let expected = schema.types.map(Self.article).joined(separator: " or ")
        throw fail("expected \(expected), found \(node.found)", node, path)
    }

    /// `node` as `type`, or nil when it is not one.
    private mutating func scalar(_ node: JSONNode, as type: String, schema: PluginSchema, at path: JSONPath) throws(OptionsDecoder.Failure) -> PluginValue? {
        switch (type, node.value) {
        case ("string", .string(let text)): return .string(text)
        case ("string", .number(_, let text)): return .string(text)
        case ("string", .bool(let flag)): return .string(flag ? "true" : "false")
        case ("number", .number(let value, _)): return .number(value)
        case ("number", .string(let text)): return Double(text.trimmingCharacters(in: .whitespaces)).map(PluginValue.number)
        case ("integer", .number(let value, _)): return value.rounded() == value ? .number(value) : nil
        case ("integer", .string(let text)): return Int64(text.trimmingCharacters(in: .whitespaces)).map { .number(Double($0)) }
        case ("boolean", .bool(let flag)): return .bool(flag)
        case ("boolean", .string("true")): return .bool(true)
        case ("boolean", .string("false")): return .bool(false)
        case ("null", .null): return .null
        case ("array", .array), ("object", .object): return try plain(node, schema: schema, at: path)
        default: return nil
        }
    }

    /// Containers checked member by member; other values as they are.
    private mutating func plain(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) throws(OptionsDecoder.Failure) -> PluginValue {
        switch node.value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let value, _): return .number(value)
        case .string(let text): return .string(text)
        case .array(let items):
            var values: [PluginValue] = []
            for (index, item) in items.enumerated() {
                let itemPath = path.appending(index)
                values.append(try convert(item, schema: schema.itemSchema ?? PluginSchema.any, at: itemPath))
            }
            return .array(values)
        case .object(let members):
            var values: [(key: String, value: PluginValue)] = []
            let known = schema.properties.map(\.name)
            for member in members {
                let memberPath = path.appending(member.key)
                if let property = schema.properties.first(where: { $0.name == member.key }) {
                    values.append((member.key, try convert(member.value, schema: property.schema, at: memberPath)))
                } else if !schema.additionalProperties {
                    unknownKeys.append((memberPath, member.keyLocation, member.key, known))
                } else {
                    values.append((member.key, try plain(member.value, schema: PluginSchema.any, at: memberPath)))
                }
            }
            for name in schema.required where !members.contains(where: { $0.key == name }) {
                throw fail("missing required option '\(name)'", node, path)
            }
            return .object(values)
        }
    }

    private func fail(_ message: String, _ node: JSONNode, _ path: JSONPath) -> OptionsDecoder.Failure {
        OptionsDecoder.Failure(path: path, location: node.location, message: message)
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "integer": return "a whole number"
        case "boolean": return "true or false"
        case "object", "array": return "an \(type)"
        case "null": return "null"
        default: return "a \(type)"
        }
    }
}
