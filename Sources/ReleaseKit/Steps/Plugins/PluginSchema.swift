/// The subset of JSON Schema a plugin's `describe` may use for its `with` object: `type`, `properties`,
/// `required`, `enum`, `items`, `additionalProperties: false`, `minimum`, `maximum`, `default` and `description`. Other keywords are
/// ignored, so a richer schema still loads; the plugin then checks what we do not.
package struct PluginSchema: Sendable, Equatable {
    /// `string`, `number`, `integer`, `boolean`, `array`, `object`, `null`; empty for any.
    package var types: [String]
    /// Declared properties, in the order written.
    package var properties: [(name: String, schema: PluginSchema)]
    package var required: [String]
    /// The only accepted values, if any.
    package var allowed: [PluginValue]?
    /// The schema of `items` (none or one; an array because a struct cannot hold itself directly).
    private var items: [PluginSchema]
    /// False for `additionalProperties: false`: an unknown key is an error.
    package var additionalProperties: Bool
    package var defaultValue: PluginValue?
    package var description: String
    /// `minimum` and `maximum`, for a number.
    package var minimum: Double?
    package var maximum: Double?

    /// A schema that accepts any value.
    package static let any = PluginSchema()

    private init() {
        types = []
        properties = []
        required = []
        allowed = nil
        items = []
        additionalProperties = true
        defaultValue = nil
        description = ""
        minimum = nil
        maximum = nil
    }

    /// Reads a schema object.
    /// - Throws: ``PluginError/badDescription(_:_:)`` naming `plugin` when a keyword has the wrong shape.
    package init(_ value: PluginValue, plugin: String) throws {
        guard case .object = value else { throw PluginError.badDescription(plugin, "'options' must be a JSON Schema object, found \(value.typeName)") }
        switch value["type"] {
        case nil: types = []
        case .string(let name)?: types = [name]
        case .array(let names)?: types = names.compactMap(\.string)
        case let other?: throw PluginError.badDescription(plugin, "a schema 'type' must be a string or array, found \(other.typeName)")
        }
        var properties: [(name: String, schema: PluginSchema)] = []
        if case .object(let members)? = value["properties"] {
            for member in members { properties.append((member.key, try PluginSchema(member.value, plugin: plugin))) }
        }
        self.properties = properties
        if case .array(let names)? = value["required"] { required = names.compactMap(\.string) } else { required = [] }
        if case .array(let values)? = value["enum"] { allowed = values } else { allowed = nil }
        items = try value["items"].map { [try PluginSchema($0, plugin: plugin)] } ?? []
        if case .bool(false)? = value["additionalProperties"] { additionalProperties = false } else { additionalProperties = true }
        defaultValue = value["default"]
        description = value["description"]?.string ?? ""
        for (keyword, bound) in [("minimum", value["minimum"]), ("maximum", value["maximum"])] {
            guard let bound else { continue }
            guard case .number(let number) = bound, number.isFinite else {
                throw PluginError.badDescription(plugin, "a schema '\(keyword)' must be a number, found \(bound.typeName)")
            }
            if keyword == "minimum" { minimum = number } else { maximum = number }
        }
    }

    package static func == (lhs: PluginSchema, rhs: PluginSchema) -> Bool {
        lhs.types == rhs.types && lhs.required == rhs.required && lhs.allowed == rhs.allowed && lhs.items == rhs.items
            && lhs.additionalProperties == rhs.additionalProperties && lhs.defaultValue == rhs.defaultValue
            && lhs.description == rhs.description && lhs.properties.map(\.name) == rhs.properties.map(\.name)
            && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum
            && zip(lhs.properties, rhs.properties).allSatisfy { $0.schema == $1.schema }
    }

    /// The schema of `items`, if any.
    package var itemSchema: PluginSchema? { items.first }

    /// The options as `release steps` documents them.
    package var optionDocumentation: [StepDocumentation.Option] {
        properties.map { property in
            let schema = property.schema
            let values = schema.allowed?.map { $0.string ?? $0.json }
            var option = StepDocumentation.Option(
                property.name, schema.types.isEmpty ? "any" : schema.types.joined(separator: "|"),
                required: required.contains(property.name), defaultValue: schema.defaultValue?.json,
                values: values, schema.description)
            option.minimum = schema.minimum
            option.maximum = schema.maximum
            return option
        }
    }
}
