import Foundation
import ReleaseSteps
import ReleaseSupport

/// The JSON Schema (draft 2020-12) of pipeline files, generated from a step registry, so editors (VS Code,
/// JetBrains) autocomplete step kinds and their options and flag mistakes as they are typed (`release schema`).
///
/// Each step kind's `with` object comes from its `@StepOption` declarations (the same ones decoding and `release steps`
/// read): key, type, allowed words, default, description, required or not. Where the loader accepts more than the
/// declared type, so does the schema: a `${...}` reference stands for any value, and text options accept numbers
/// and booleans (interpolation makes text). The loader remains the judge of what references refer to.
package enum PipelineSchema {
    /// The schema's dialect.
    package static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema as a JSON value.
    package static func object(registry: StepRegistry) -> [String: Any] {
        var definitions: [String: Any] = [
            "template": ["type": "string", "pattern": "\\$\\{", "description": "a ${...} reference, known at run time"],
            "scalar": ["type": ["string", "number", "boolean"]],
            "variables": [
                "type": "object", "additionalProperties": ["$ref": "#/$defs/scalar"],
                "propertyNames": ["pattern": "^[A-Za-z0-9_-]+$"],
            ],
            "patterns": ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]],
            "condition": condition,
            "runner": [
                "anyOf": [["type": "string", "minLength": 1], ["type": "array", "minItems": 1, "items": ["type": "string", "minLength": 1]]],
                "description": "the runner label(s) a step needs when exported to CI, such as \"macos-15\" or \"ubuntu-latest\"",
            ],
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
            "required": PipelineKey.keys(in: .pipeline).filter(\.required).map(\.name),
            "additionalProperties": false,
            "properties": properties(.pipeline, kinds: registry.kinds),
            "$defs": definitions,
        ]
    }

    /// The schema as pretty JSON text with sorted keys, ending with a newline.
    package static func text(registry: StepRegistry) -> String {
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
            "required": PipelineKey.keys(in: .step).filter(\.required).map(\.name),
            "additionalProperties": false,
            "properties": properties(.step, kinds: kinds),
            "allOf": conditionals,
        ]
    }

    /// The keys of `scope` from ``PipelineKey/all``: each value's schema, with the key's help (and default) as its
    /// description.
    static func properties(_ scope: PipelineKey.Scope, kinds: [StepKind]) -> [String: Any] {
        var properties: [String: Any] = [:]
        for key in PipelineKey.keys(in: scope) {
            var schema = value(key.value, kinds: kinds)
            var description = key.help
            if let defaultValue = key.defaultValue {
                if !description.contains("(default") { description += " (default: \(defaultValue))" }
                if let value = try? JSONSerialization.jsonObject(with: Data(defaultValue.utf8), options: [.fragmentsAllowed]) {
                    schema["default"] = value
                }
            }
            schema["description"] = description
            properties[key.name] = schema
        }
        return properties
    }

    /// The schema of a key's value. Number bounds are the loader's, inclusive (integral ones written as integers).
    static func value(_ value: PipelineKey.Value, kinds: [StepKind]) -> [String: Any] {
        switch value {
        case .text(let nonEmpty): return nonEmpty ? ["type": "string", "minLength": 1] : ["type": "string"]
        case .outputTemplate: return ["type": "string", "pattern": #"\$\{steps\.[^}]+\.outputs\.[^}]+\}"#]
        case .boolean: return ["type": "boolean"]
        case .number(let whole, let range):
            let bound = { (value: Double) -> Any in value.rounded() == value ? Int64(value) as Any : value }
            return ["type": whole ? "integer" : "number", "minimum": bound(range.minimum), "maximum": bound(range.maximum)]
        case .version: return ["enum": PipelineLoader.supportedVersions]
        case .stepID: return ["type": "string", "pattern": "^\(PipelineLoader.idPattern)$"]
        case .stepKind: return ["enum": kinds.map(\.kind)]
        case .stepIDs: return ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]]
        case .options: return ["type": "object"]
        case .condition: return ["$ref": "#/$defs/condition"]
        case .variables: return ["$ref": "#/$defs/variables"]
        case .runner: return ["$ref": "#/$defs/runner"]
        case .plugins: return ["type": "object", "additionalProperties": ["type": "string", "minLength": 1]]
        case .tool: return tool
        case .steps: return ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/step"]]
        case .profiles:
            return [
                "type": "object",
                "propertyNames": ["pattern": "^\(PipelineLoader.idPattern)$"],
                "additionalProperties": [
                    "type": "object",
                    "additionalProperties": false,
                    "properties": properties(.profile, kinds: kinds),
                ] as [String: Any],
            ]
        }
    }

    private static var tool: [String: Any] {
        [
            "type": "object",
            "required": ["source"],
            "additionalProperties": false,
            "properties": [
                "source": ["enum": ["download", "homebrew", "mint", "swiftpm"]],
                "version": ["type": "string"],
                "url": ["type": "string", "description": "download: URL pattern with {version} and {platform}"],
                "sha256": [
                    "type": "object", "description": "download: platform -> SHA-256 of its tarball",
                    "additionalProperties": ["type": "string", "pattern": "^[0-9a-fA-F]{64}$"],
                ],
                "tap": ["type": "string"], "formula": ["type": "string"],
                "package": ["type": "string"],
                "repository": ["type": "string"], "tag": ["type": "string"],
            ] as [String: Any],
        ]
    }

    /// A kind's `with` object from its declared options.
    private static func with(_ kind: StepKind) -> [String: Any] {
        var properties: [String: Any] = [:]
        for option in kind.documentation.options {
            var schema =
                option.values.map { words in ["anyOf": [["enum": words], ["$ref": "#/$defs/template"]]] as [String: Any] }
                ?? type(option.type)
            if let minimum = option.minimum, let maximum = option.maximum {
                schema = bounded(schema, minimum: minimum, maximum: maximum)
            }
            if let keywords = option.schema, schema["$ref"] as? String == "#/$defs/scalar" {
                schema = constrained(schema, keywords)
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
            return [
                "type": "object", "additionalProperties": false,
                "properties": Dictionary(keys.map { ($0, [String: Any]()) }, uniquingKeysWith: { first, _ in first }),
            ]
        }
        switch text {
        case "number": return ["anyOf": [["type": "number"], ["$ref": "#/$defs/template"]]]
        case "bool": return ["anyOf": [["type": "boolean"], ["enum": ["true", "false"]], ["$ref": "#/$defs/template"]]]
        case "string", "path", "glob", "regex": return ["$ref": "#/$defs/scalar"]
        default: return ["enum": [text]]
        }
    }

    /// A text option's `schema` (`{"$ref": "#/$defs/scalar"}`) with the keywords of its constraints
    /// (``OptionConstraint/schema``) on a string, or any `${…}` reference, which the constraints judge once resolved.
    static func constrained(_ schema: [String: Any], _ keywords: [String: OptionConstraint.SchemaValue]) -> [String: Any] {
        var kept = schema
        for (key, value) in keywords {
            switch value {
            case .integer(let number): kept[key] = number
            case .string(let text): kept[key] = text
            }
        }
        return ["anyOf": [kept, ["$ref": "#/$defs/template"]]]
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
