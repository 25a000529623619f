import ReleaseSupport

/// A registered step kind with its typed `Options` erased: what `release steps` documents, the options type the
/// pipeline loader decodes `with` into, and how to build the step from decoded options.
///
/// Decoding itself (JSON, locations, `${…}` stand-ins) belongs to the pipeline layer
/// (`StepKind+Decoding.swift` in Pipeline/), which uses this type; steps know nothing of JSON files.
package struct StepKind: Sendable {
    package let kind: String
    package let summary: String
    package let documentation: StepDocumentation
    /// The step's `Options` type.
    package let optionsType: any StepOptions.Type
    /// For an external plugin kind: its description and executable. Its `with` is checked against the
    /// description's schema instead of being decoded into `optionsType`.
    package let plugin: (description: PluginDescription, executable: String)?
    /// Whether the kind reports on the run (``RunReportingStep``): scheduled like an `always` step.
    package let reportsOnRun: Bool
    /// The options holding a shell script and its environment (``Step/shellScript``), if the kind has them.
    package let shellScript: ShellScriptOption?
    /// What `release export` needs to know about the kind (``Step/exportTraits``); a plugin states none.
    package let exportTraits: ExportTraits
    private let create: @Sendable (any StepOptions) throws -> any Step

    package init<S: Step>(_ type: S.Type) {
        kind = S.kind
        summary = S.summary
        documentation = S.documentation
        optionsType = S.Options.self
        create = { options in
            guard let typed = options as? S.Options else {
                throw InternalError("step kind '\(S.kind)' was given options of type \(Swift.type(of: options))")
            }
            return try S(options: typed)
        }
        plugin = nil
        reportsOnRun = S.self is any RunReportingStep.Type
        shellScript = S.shellScript
        exportTraits = S.exportTraits
    }

    /// A kind served by the external plugin at `executable`.
    package init(plugin description: PluginDescription, executable: String) {
        kind = description.kind
        summary = description.summary
        let required = description.options.properties.filter { description.options.required.contains($0.name) }
        let with = required.map { "\"\($0.name)\": \($0.schema.defaultValue?.json ?? "\"...\"")" }.joined(separator: ", ")
        documentation = StepDocumentation(
            options: description.options.optionDocumentation, outputs: description.outputs,
            example: "{\"id\": \"\(description.kind.replacingOccurrences(of: ".", with: "-"))\", \"uses\": \"\(description.kind)\", \"with\": {\(with)}}")
        optionsType = PluginStep.Options.self
        plugin = (description, executable)
        reportsOnRun = false
        shellScript = nil
        exportTraits = ExportTraits()
        create = { _ in throw InternalError("plugin kind '\(description.kind)' is built from its JSON options") }
    }

    /// Where the kind comes from, for `release steps`: `built-in`, or the plugin's executable.
    package var source: String { plugin?.executable ?? "built-in" }

    /// Creates the step from decoded options.
    /// - Throws: ``StepError`` from the step's `init(options:)` when a value is wrong.
    package func makeStep(_ options: any StepOptions) throws -> any Step {
        try create(options)
    }
}
