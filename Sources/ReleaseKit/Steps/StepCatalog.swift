import Foundation

/// `release steps`: every step kind with its options, outputs and example.
package enum StepCatalog {
    /// Readable text for all kinds in `registry`.
    package static func text(_ registry: StepRegistry) -> String {
        var out = ""
        for kind in registry.kinds {
            out += "\(kind.kind)\n  \(kind.summary)\n"
            if let plugin = kind.plugin { out += "  plugin: \(plugin.executable)\n" }
            let documentation = kind.documentation
            if documentation.options.isEmpty {
                out += "  options: none\n"
            } else {
                out += "  options:\n"
                let width = documentation.options.map(\.name.count).max() ?? 0
                for option in documentation.options {
                    var notes: [String] = []
                    if let minimum = option.minimum, let maximum = option.maximum { notes.append(OptionRange(minimum...maximum).text) }
                    notes += option.constraints ?? []
                    if option.required { notes.append("required") } else if let value = option.defaultValue { notes.append("default \(value)") }
                    let note = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
                    out += "    \(option.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(option.type)\(note): \(option.description)\n"
                }
                for exclusion in documentation.exclusions { out += "  one at a time: \(exclusion)\n" }
            }
            if !documentation.outputs.isEmpty {
                out += "  outputs:\n"
                let width = documentation.outputs.map(\.name.count).max() ?? 0
                for output in documentation.outputs {
                    out += "    \(output.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(output.type): \(output.description)\n"
                }
            }
            out += "  example:\n" + documentation.example.split(separator: "\n").map { "    \($0)\n" }.joined() + "\n"
        }
        return out
    }

    /// A JSON array of every kind, for programs.
    package static func json(_ registry: StepRegistry) -> [[String: Any]] {
        registry.kinds.map { kind in
            [
                "kind": kind.kind,
                "summary": kind.summary,
                "source": kind.source,
                "options": kind.documentation.options.map(json),
                "outputs": kind.documentation.outputs.map { ["name": $0.name, "type": $0.type, "description": $0.description] },
                "dynamic_outputs": kind.documentation.dynamicOutputs,
                "exclusions": kind.documentation.exclusions,
                "example": kind.documentation.example,
            ]
        }
    }

    /// One option for programs: `default` is the JSON value itself, `values` the words of a choice.
    static func json(_ option: StepDocumentation.Option) -> [String: Any] {
        var object: [String: Any] = ["name": option.name, "type": option.type, "required": option.required, "description": option.description]
        if let text = option.defaultValue,
            let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        {
            object["default"] = value
        }
        if let values = option.values { object["values"] = values }
        if let constraints = option.constraints { object["constraints"] = constraints }
        // Integral bounds as integers, so `1` is not written `1.0`.
        for (key, bound) in [("minimum", option.minimum), ("maximum", option.maximum)] {
            if let bound { object[key] = bound.rounded() == bound && abs(bound) < 1e15 ? Int64(bound) as Any : bound }
        }
        return object
    }
}
