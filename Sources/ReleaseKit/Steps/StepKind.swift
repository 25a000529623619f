/// A registered step kind with its typed `Options` erased: what `release steps` documents, the options type the
/// pipeline loader decodes `with` into, and how to build the step from decoded options.
///
/// Decoding itself (JSON, locations, `${…}` stand-ins) belongs to the pipeline layer
/// (`StepKind+Decoding.swift` in Pipeline/), which uses this type; steps know nothing of JSON files.
public struct StepKind: Sendable {
    public let kind: String
    public let summary: String
    public let documentation: StepDocumentation
    /// The step's `Options` type.
    public let optionsType: any StepOptions.Type
    private let create: @Sendable (any StepOptions) throws -> any Step

    public init<S: Step>(_ type: S.Type) {
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
    }

    /// Creates the step from decoded options.
    /// - Throws: ``StepError`` from the step's `init(options:)` when a value is wrong.
    public func makeStep(_ options: any StepOptions) throws -> any Step {
        try create(options)
    }
}
