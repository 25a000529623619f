/// A registered step kind, with its typed `Options` erased: decodes `with` and builds the step.
public struct StepKind: Sendable {
    public let kind: String
    public let summary: String
    public let documentation: StepDocumentation
    private let build: @Sendable (JSONNode, JSONPath, OptionsDecoder.Mode) throws -> BuildResult

    /// A built step and the keys in `with` its options never asked for.
    public struct BuildResult: Sendable {
        public var step: (any Step)?
        public var unknownKeys: [(path: JSONPath, location: SourceLocation, key: String, known: [String])]
        /// Every key of `with` the options asked for, present or not: the documentation test compares them with the
        /// documented options.
        public var requestedKeys: Set<String>
    }

    public init<S: Step>(_ type: S.Type) {
        kind = S.kind
        summary = S.summary
        documentation = S.documentation
        build = { node, path, mode in
            let outcome = try OptionsDecoder(mode: mode).decode(S.Options.self, from: node, at: path)
            // During validation, options holding `${...}` stand-ins are checked by `init` at run time, when the
            // values are known; options without any are checked now.
            if mode == .validation && StepKind.containsReferences(node) {
                return BuildResult(step: try? S(options: outcome.value), unknownKeys: outcome.unknownKeys, requestedKeys: outcome.requestedKeys)
            }
            return BuildResult(step: try S(options: outcome.value), unknownKeys: outcome.unknownKeys, requestedKeys: outcome.requestedKeys)
        }
    }

    static func containsReferences(_ node: JSONNode) -> Bool {
        var found = false
        forEachString(in: node, path: .root) { text, _, _ in
            if Template.mayContainReferences(text) { found = true }
        }
        return found
    }

    /// Decodes `with` (an object; `{}` when absent) and creates the step.
    /// - Throws: ``OptionsDecoder/Failure`` for malformed options, ``StepError`` from the step's `init`.
    public func make(with node: JSONNode, at path: JSONPath, mode: OptionsDecoder.Mode) throws -> BuildResult {
        try build(node, path, mode)
    }
}
