extension StepKind {
    /// A built step and the keys in `with` its options never asked for.
    public struct BuildResult: Sendable {
        public var step: (any Step)?
        public var unknownKeys: [(path: JSONPath, location: SourceLocation, key: String, known: [String])]
        /// Every key of `with` the options asked for, present or not: the documentation test compares them with the
        /// documented options.
        public var requestedKeys: Set<String>
    }

    /// Decodes `with` (an object; `{}` when absent) and creates the step.
    ///
    /// During validation, options holding `${...}` stand-ins are checked by the step's `init` at run time, when
    /// the values are known; options without any are checked now.
    /// - Throws: ``OptionsDecoder/Failure`` for malformed options, ``StepError`` from the step's `init`.
    public func make(with node: JSONNode, at path: JSONPath, mode: OptionsDecoder.Mode) throws -> BuildResult {
        if let plugin {
            var checker = PluginOptions(mode: mode)
            let options = try checker.convert(node, schema: plugin.description.options, at: path)
            let step = PluginStep(description: plugin.description, executable: plugin.executable, options: options)
            return BuildResult(step: step, unknownKeys: checker.unknownKeys,
                               requestedKeys: Set(plugin.description.options.properties.map(\.name)))
        }
        var result = try Self.decode(optionsType, from: node, at: path, mode: mode)
        let options = result.options
        result.build.step = mode == .validation && Self.containsReferences(node) ? try? makeStep(options) : try makeStep(options)
        return result.build
    }

    /// Decodes one options type; generic so the existential `optionsType` is opened for the decoder.
    private static func decode<Options: StepOptions>(_ type: Options.Type, from node: JSONNode, at path: JSONPath,
                                                     mode: OptionsDecoder.Mode) throws -> (options: any StepOptions, build: BuildResult) {
        let outcome = try OptionsDecoder(mode: mode).decode(type, from: node, at: path)
        return (outcome.value, BuildResult(step: nil, unknownKeys: outcome.unknownKeys, requestedKeys: outcome.requestedKeys))
    }

    static func containsReferences(_ node: JSONNode) -> Bool {
        var found = false
        forEachString(in: node, path: .root) { text, _, _ in
            if Template.mayContainReferences(text) { found = true }
        }
        return found
    }
}
