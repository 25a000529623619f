import ReleaseSteps
import ReleaseSupport

/// Checks a plugin step's `with` against the JSON Schema subset of its `describe` answer (``PluginSchema``) and
/// turns it into the JSON the plugin receives, with the same located messages as built-in options: wrong type,
/// missing required option, a value outside `enum`, a number outside `minimum`/`maximum` or not finite, and (under
/// `additionalProperties: false`) unknown keys for the caller to report with a did-you-mean. As ``OptionsDecoder``
/// does, every problem of the object is collected before it fails, so one `validate` shows them all.
///
/// Like ``OptionsDecoder``, numbers and booleans may be written as strings (interpolation produces text), and in
/// ``OptionsDecoder/Mode/validation`` a string holding `${...}` stands for any value. A number or boolean written
/// where the schema asks for a string is refused at validation; at run time it is given to the plugin as text, since
/// there it may be the typed value of a whole `"${steps.x.outputs.count}"` (which validation took for any value).
struct PluginOptions {
    typealias Unknown = OptionsDecoder.UnknownKey

    let mode: OptionsDecoder.Mode
    private(set) var unknownKeys: [Unknown] = []
    /// The problems found so far, in document order.
    private var failures: [OptionsDecoder.Failure] = []

    init(mode: OptionsDecoder.Mode) {
        self.mode = mode
    }

    /// `node` checked against `schema` and converted.
    /// - Throws: the first problem, with the others and the unknown keys found beside it (``OptionsDecoder/Failure``).
    mutating func convert(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) throws(OptionsDecoder.Failure) -> PluginValue {
        let value = check(node, schema: schema, at: path)
        if var first = failures.first {
            first.others = Array(failures.dropFirst())
            first.unknownKeys = unknownKeys
            throw first
        }
        return value ?? .null
    }

    /// `node` checked and converted; nil once a problem of it is recorded.
    private mutating func check(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) -> PluginValue? {
        if mode == .validation, case .string(let text) = node.value, Template.mayContainReferences(text) {
            return .string(text)
        }
        guard let value = typed(node, schema: schema, at: path) else { return nil }
        if case .number(let number) = value {
            // `1e999` is infinity, `"nan"` NaN: neither can be written as JSON for the plugin.
            guard number.isFinite else { return fail("expected a finite number, found \(node.preview)", node, path) }
            let minimum = schema.minimum ?? -.infinity, maximum = schema.maximum ?? .infinity
            if number < minimum || number > maximum {
                var key = "the value"
                if case .key(let name)? = path.components.last { key = "'\(name)'" }
                let range =
                    switch (schema.minimum, schema.maximum) {
                    case (let low?, let high?): OptionRange(low...high).text
                    case (let low?, nil): "at least \(NumberText.string(low))"
                    default: "at most \(NumberText.string(maximum))"
                    }
                return fail("\(key) must be \(range), found \(node.preview)", node, path)
            }
        }
        if let allowed = schema.allowed, !allowed.contains(value) {
            let words = allowed.map { $0.string ?? $0.json }.joined(separator: ", ")
            return fail("'\(Echo.text(value.string ?? value.json))' is not one of \(words)", node, path)
        }
        return value
    }

    private mutating func typed(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) -> PluginValue? {
        if schema.types.isEmpty { return plain(node, schema: schema, at: path) }
        for type in schema.types {
            if let value = scalar(node, as: type, schema: schema, at: path) { return value }
        }
        // A container of the right type whose members had problems is reported by them, not as a wrong type.
        if case .array = node.value, schema.types.contains("array") { return nil }
        if case .object = node.value, schema.types.contains("object") { return nil }
        let expected = schema.types.map(Self.article).joined(separator: " or ")
        return fail("expected \(expected), found \(node.found)", node, path)
    }

    /// `node` as `type`, or nil when it is not one (or, for a container, when a member of it had a problem).
    private mutating func scalar(_ node: JSONNode, as type: String, schema: PluginSchema, at path: JSONPath) -> PluginValue? {
        switch (type, node.value) {
        case ("string", .string(let text)): return .string(text)
        case ("string", .number(_, let text)) where mode == .resolved: return .string(text)
        case ("string", .bool(let flag)) where mode == .resolved: return .string(flag ? "true" : "false")
        case ("number", .number(let value, _)): return .number(value)
        case ("number", .string(let text)): return Double(text.trimmingCharacters(in: .whitespaces)).map(PluginValue.number)
        case ("integer", .number(let value, _)): return value.rounded() == value ? .number(value) : nil
        case ("integer", .string(let text)): return Int64(text.trimmingCharacters(in: .whitespaces)).map { .number(Double($0)) }
        case ("boolean", .bool(let flag)): return .bool(flag)
        case ("boolean", .string("true")): return .bool(true)
        case ("boolean", .string("false")): return .bool(false)
        case ("null", .null): return .null
        case ("array", .array), ("object", .object): return plain(node, schema: schema, at: path)
        default: return nil
        }
    }

    /// Containers checked member by member, every member even after one fails; other values as they are.
    private mutating func plain(_ node: JSONNode, schema: PluginSchema, at path: JSONPath) -> PluginValue? {
        switch node.value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let value, _): return .number(value)
        case .string(let text): return .string(text)
        case .array(let items):
            var values: [PluginValue] = []
            var complete = true
            for (index, item) in items.enumerated() {
                if let value = check(item, schema: schema.itemSchema ?? PluginSchema.any, at: path.appending(index)) {
                    values.append(value)
                } else {
                    complete = false
                }
            }
            return complete ? .array(values) : nil
        case .object(let members):
            var values: [(key: String, value: PluginValue)] = []
            var complete = true
            let known = schema.properties.map(\.name)
            for member in members {
                let memberPath = path.appending(member.key)
                let value: PluginValue?
                if let property = schema.properties.first(where: { $0.name == member.key }) {
                    value = check(member.value, schema: property.schema, at: memberPath)
                } else if !schema.additionalProperties {
                    unknownKeys.append((path: memberPath, location: member.keyLocation, key: member.key, known: known))
                    continue
                } else {
                    value = plain(member.value, schema: PluginSchema.any, at: memberPath)
                }
                if let value { values.append((member.key, value)) } else { complete = false }
            }
            for name in schema.required where !members.contains(where: { $0.key == name }) {
                complete = false
                failures.append(failure("missing required option '\(name)'", node, path))
            }
            return complete ? .object(values) : nil
        }
    }

    /// Records a problem; nil for the value that has it.
    private mutating func fail(_ message: String, _ node: JSONNode, _ path: JSONPath) -> PluginValue? {
        failures.append(failure(message, node, path))
        return nil
    }

    private func failure(_ message: String, _ node: JSONNode, _ path: JSONPath) -> OptionsDecoder.Failure {
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
