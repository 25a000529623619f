import Foundation

@testable import ReleaseExecution
@testable import ReleaseSteps

/// What a step returns against what its kind declares (`StepDocumentation.outputs`, which `release steps`, the
/// schema and the reference checker read): a key a step returns without declaring it cannot be referenced by
/// `${steps.ID.outputs.KEY}` without a validation error, so it is a bug either in the step or in its documentation.
enum DeclaredOutputs {
    /// Keys of `outputs` that `kind` does not declare. A declared name ending in an upper-case placeholder
    /// (`asset_url_NAME`) stands for every key with that prefix; a kind with dynamic outputs and no such pattern
    /// (`shell`: whatever the command writes to `$RELEASE_OUTPUT`) may return any key.
    static func undeclared(_ keys: some Sequence<String>, kind: StepKind) -> [String] {
        let documentation = kind.documentation
        let names = Set(documentation.outputs.map(\.name))
        let prefixes = documentation.outputs.compactMap { output -> String? in
            guard let underscore = output.name.lastIndex(of: "_") else { return nil }
            let placeholder = output.name[output.name.index(after: underscore)...]
            guard !placeholder.isEmpty, placeholder.allSatisfy({ $0.isUppercase }) else { return nil }
            return String(output.name[...underscore])
        }
        if documentation.dynamicOutputs && prefixes.isEmpty { return [] }
        return keys.filter { key in !names.contains(key) && !prefixes.contains { key.hasPrefix($0) } }.sorted()
    }

    /// "STEP (KIND) returns undeclared outputs ..." for every step of `result` whose kind is registered in `registry`.
    static func problems(_ result: RunResult, registry: StepRegistry) -> [String] {
        result.steps.compactMap { step in
            guard let kind = registry[step.kind] else { return nil }
            let extra = undeclared(step.outputs.keys, kind: kind)
            return extra.isEmpty ? nil : "step '\(step.id)' (\(step.kind)) returns undeclared outputs \(extra.joined(separator: ", "))"
        }
    }
}
