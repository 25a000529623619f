import ReleaseSupport

/// What `EXE describe` answers (protocol 1): the kind, its options schema and outputs, and whether it only reads.
package struct PluginDescription: Sendable, Equatable {
    /// The only protocol version this release speaks.
    package static let protocolVersion = 1

    package var kind: String
    package var summary: String
    package var options: PluginSchema
    package var outputs: [StepDocumentation.Output]
    package var readOnly: Bool
    /// The `describe` answer as printed, kept for the cache.
    package var json: String

    /// Reads a `describe` answer.
    /// - Parameter plugin: how messages name the plugin (`'slack.post' (/path/to/exe)`).
    /// - Throws: ``PluginError/badDescription(_:_:)``.
    package init(json text: String, plugin: String) throws {
        guard let value = PluginValue.parse(text), case .object = value else {
            throw PluginError.badDescription(plugin, "did not print one JSON object: '\(Echo.text(text, limit: 200))'")
        }
        guard case .number(let version)? = value["protocol"], version == Double(Self.protocolVersion) else {
            throw PluginError.badDescription(plugin, "speaks protocol \(value["protocol"]?.json ?? "(none)"); this release speaks protocol \(Self.protocolVersion)")
        }
        guard let kind = value["kind"]?.string, !kind.isEmpty else {
            throw PluginError.badDescription(plugin, "gave no 'kind'")
        }
        self.kind = kind
        summary = value["summary"]?.string ?? ""
        options =
            try value["options"].map { try PluginSchema($0, plugin: plugin) }
            ?? PluginSchema(.object([(key: "type", value: .string("object"))]), plugin: plugin)
        var outputs: [StepDocumentation.Output] = []
        if case .object(let members)? = value["outputs"] {
            for member in members {
                let type = member.value["type"]?.string ?? "string"
                guard ["string", "number", "bool", "path", "list"].contains(type) else {
                    throw PluginError.badDescription(plugin, "gave output '\(member.key)' the unknown type '\(type)' (use string, number, bool, path or list)")
                }
                outputs.append(StepDocumentation.Output(member.key, type, member.value["description"]?.string ?? ""))
            }
        }
        self.outputs = outputs
        if case .bool(let flag)? = value["read_only"] { readOnly = flag } else { readOnly = false }
        json = text
    }
}
