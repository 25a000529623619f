import Foundation

/// The JSON Schema (draft 2020-12) of pipeline files, generated from a step registry, so editors (VS Code,
/// JetBrains) autocomplete step kinds and their options and flag mistakes as they are typed (`release schema`).
///
/// Each step kind's `with` object comes from its `@StepOption` declarations (the same ones decoding and `release steps`
/// read): key, type, allowed words, default, description, required or not. Where the loader accepts more than the
/// declared type, so does the schema: a `${...}` reference stands for any value, and text options accept numbers
/// and booleans (interpolation makes text). The loader remains the judge of what references refer to.
public enum PipelineSchema {
    /// The schema's dialect.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema as a JSON value.
    public static func object(registry: StepRegistry) -> [String: Any] {
        var definitions: [String: Any] = [
            "template": ["type": "string", "pattern": "\\$\\{", "description": "a ${...} reference, known at run time"],
            "scalar": ["type": ["string", "number", "boolean"]],
            "variables": ["type": "object", "additionalProperties": ["$ref": "#/$defs/scalar"],
                          "propertyNames": ["pattern": "^[A-Za-z0-9_-]+$"]],
            "patterns": ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]],
            "condition": condition,
            "runner": ["anyOf": [["type": "string", "minLength": 1], ["type": "array", "minItems": 1, "items": ["type": "string", "minLength": 1]]],
                       "description": "the runner label(s) a step needs when exported to CI, such as \"macos-15\" or \"ubuntu-latest\""],
        ]
        var conditionals: [Any] = []
        for kind in registry.kinds {
            let name = "with:" + kind.kind
            definitions[name] = with(kind)
            let required = kind.documentation.options.contains(where: \.required)
            var then: [String: Any] = ["properties": ["with": ["$ref": "#/$defs/\(name)"]]]
            if required { then["required"] = ["with"] }
            conditionals.append([
                "if": ["properties": ["uses": ["const": kind.kind]], "required": ["uses"]],
                "then": then,
            ])
        }
        definitions["step"] = step(kinds: registry.kinds, conditionals: conditionals)
        return [
            "$schema": dialect,
            "title": "release pipeline (format version \(PipelineLoader.supportedVersions.map(String.init).joined(separator: ", ")))",
            "description": "A release as a graph of steps; see Pipelines/README.md and 'release steps'.",
            "type": "object",
            "required": ["version", "steps"],
            "additionalProperties": false,
            "properties": [
                "$schema": ["type": "string", "description": "accepted and ignored: where editors find this schema"],
                "version": ["enum": PipelineLoader.supportedVersions, "description": "the format version"],
                "name": ["type": "string", "minLength": 1, "description": "shown in output and reports (default: the file name)"],
                "description": ["type": "string"],
                "variables": ["$ref": "#/$defs/variables"],
                "runs_on": ["$ref": "#/$defs/runner"],
                "tool": [
                    "type": "object",
                    "description": "where exported CI jobs get release (default: the pinned tarballs of this version)",
                    "required": ["source"],
                    "additionalProperties": false,
                    "properties": [
                        "source": ["enum": ["download", "homebrew", "mint", "swiftpm"]],
                        "version": ["type": "string"],
                        "url": ["type": "string", "description": "download: URL pattern with {version} and {platform}"],
                        "sha256": ["type": "object", "description": "download: platform -> SHA-256 of its tarball",
                                   "additionalProperties": ["type": "string", "pattern": "^[0-9a-fA-F]{64}$"]],
                        "tap": ["type": "string"], "formula": ["type": "string"],
                        "package": ["type": "string"],
                        "repository": ["type": "string"], "tag": ["type": "string"],
                    ],
                ],
                "attest": ["type": "boolean", "description": "exported workflows attest the provenance of published files"],
                "profiles": [
                    "type": "object",
                    "propertyNames": ["pattern": "^\(PipelineLoader.idPattern)$"],
                    "additionalProperties": [
                        "type": "object",
                        "additionalProperties": false,
                        "properties": [
                            "when": ["$ref": "#/$defs/condition"],
                            "default": ["type": "boolean"],
                            "variables": ["$ref": "#/$defs/variables"],
                            "description": ["type": "string"],
                        ] as [String: Any],
                    ] as [String: Any],
                ] as [String: Any],
                "steps": ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/step"]] as [String: Any],
            ] as [String: Any],
            "$defs": definitions,
        ]
    }

    /// The schema as pretty JSON text with sorted keys, ending with a newline.
    public static func text(registry: StepRegistry) -> String {
        (JSONWriter.text(object(registry: registry), pretty: true) ?? "{}") + "\n"
    }

    // MARK: Parts

    private static var condition: [String: Any] {
        [
            "type": "object",
            "minProperties": 1,
            "additionalProperties": false,
            "properties": [
                "profile": ["$ref": "#/$defs/patterns"],
                "branch": ["$ref": "#/$defs/patterns"],
                "env": ["type": "object", "additionalProperties": ["type": "string"]],
                "os": ["anyOf": [["enum": Condition.knownSystems], ["type": "array", "items": ["enum": Condition.knownSystems]]]],
                "all": ["type": "array", "items": ["$ref": "#/$defs/condition"]],
                "any": ["type": "array", "items": ["$ref": "#/$defs/condition"]],
                "not": ["$ref": "#/$defs/condition"],
            ] as [String: Any],
        ]
    }

    private static func step(kinds: [StepKind], conditionals: [Any]) -> [String: Any] {
        [
            "type": "object",
            "required": ["id", "uses"],
            "additionalProperties": false,
            "properties": [
                "id": ["type": "string", "pattern": "^\(PipelineLoader.idPattern)$"],
                "uses": ["enum": kinds.map(\.kind), "description": "the step kind ('release steps' lists them)"],
                "needs": ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]],
                          "description": "step ids that must finish first"],
                "with": ["type": "object", "description": "the step kind's options"],
                "when": ["$ref": "#/$defs/condition"],
                "gate": ["type": "boolean", "description": "a validation gate: a rejection blocks everything downstream (exit 2)"],
                "always": ["type": "boolean", "description": "runs after its needs whatever their outcome, and after an interrupt"],
                "retries": ["type": "integer", "minimum": 0, "maximum": 100],
                "retry_delay": ["type": "number", "minimum": 0, "maximum": 3600],
                "timeout": ["type": "number", "exclusiveMinimum": 0, "maximum": 604_800, "description": "seconds"],
                "continue_on_error": ["type": "boolean"],
                "runs_on": ["$ref": "#/$defs/runner"],
                "description": ["type": "string"],
            ] as [String: Any],
            "allOf": conditionals,
        ]
    }

    /// A kind's `with` object from its declared options.
    private static func with(_ kind: StepKind) -> [String: Any] {
        var properties: [String: Any] = [:]
        for option in kind.documentation.options {
            var schema = option.values.map { words in ["anyOf": [["enum": words], ["$ref": "#/$defs/template"]]] as [String: Any] }
                ?? type(option.type)
            if let minimum = option.minimum, let maximum = option.maximum {
                schema = bounded(schema, minimum: minimum, maximum: maximum)
            }
            var description = option.description
            if let defaultValue = option.defaultValue {
                description += " (default: \(defaultValue))"
                if let data = defaultValue.data(using: .utf8), let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
                    schema["default"] = value
                }
            }
            schema["description"] = description
            properties[option.name] = schema
        }
        let required = kind.documentation.options.filter(\.required).map(\.name)
        var object: [String: Any] = [
            "type": "object",
            "description": kind.summary,
            "properties": properties,
            "additionalProperties": false,
        ]
        if !required.isEmpty { object["required"] = required }
        return object
    }

    /// A schema for a type as `release steps` writes it: `path`, `[glob]`, `{string: string}`, `[string] | string`,
    /// `{field, filename}`, `app-store | ad-hoc`.
    static func type(_ text: String) -> [String: Any] {
        let alternatives = splitTopLevel(text, on: "|")
        if alternatives.count > 1 { return ["anyOf": alternatives.map(type)] }
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), text.hasSuffix("]") {
            return ["anyOf": [["type": "array", "items": type(String(text.dropFirst().dropLast()))], ["$ref": "#/$defs/template"]]]
        }
        if text.hasPrefix("{"), text.hasSuffix("}") {
            let inner = String(text.dropFirst().dropLast())
            if inner.hasPrefix("string:") {
                return ["type": "object", "additionalProperties": type(String(inner.dropFirst("string:".count)))]
            }
            let keys = splitTopLevel(inner, on: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return ["type": "object", "additionalProperties": false,
                    "properties": Dictionary(keys.map { ($0, [String: Any]()) }, uniquingKeysWith: { first, _ in first })]
        }
        switch text {
        case "number": return ["anyOf": [["type": "number"], ["$ref": "#/$defs/template"]]]
        case "bool": return ["anyOf": [["type": "boolean"], ["enum": ["true", "false"]], ["$ref": "#/$defs/template"]]]
        case "string", "path", "glob", "regex": return ["$ref": "#/$defs/scalar"]
        default: return ["enum": [text]]
        }
    }

    /// `schema` with `minimum` and `maximum` on every `{"type": "number"}` in it (an array's items included).
    static func bounded(_ schema: [String: Any], minimum: Double, maximum: Double) -> [String: Any] {
        var schema = schema
        if schema["type"] as? String == "number" {
            schema["minimum"] = minimum.rounded() == minimum ? Int64(minimum) as Any : minimum
            schema["maximum"] = maximum.rounded() == maximum ? Int64(maximum) as Any : maximum
        }
        for (key, value) in schema {
            if let nested = value as? [String: Any] {
                schema[key] = bounded(nested, minimum: minimum, maximum: maximum)
            } else if let list = value as? [[String: Any]] {
                schema[key] = list.map { bounded($0, minimum: minimum, maximum: maximum) }
            }
        }
        return schema
    }

    /// Splits on `separator` outside brackets and braces.
    private static func splitTopLevel(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if character == "[" || character == "{" { depth += 1 }
            if character == "]" || character == "}" { depth -= 1 }
            if character == separator, depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
