import ReleaseSteps

extension StepKind {
    /// A built step and the keys in `with` its options never asked for.
    package struct BuildResult: Sendable {
        package var step: (any Step)?
        package var unknownKeys: [(path: JSONPath, location: SourceLocation, key: String, known: [String])]
        /// Every key of `with` the options asked for, present or not: the documentation test compares them with the
        /// documented options.
        package var requestedKeys: Set<String>
    }

    /// Decodes `with` (an object; `{}` when absent) and creates the step.
    ///
    /// During validation, options holding `${...}` stand-ins are checked by the step's `init` at run time, when
    /// the values are known; options without any are checked now.
    /// - Throws: ``OptionsDecoder/Failure`` for malformed options, ``StepError`` from the step's `init`.
    package func make(with node: JSONNode, at path: JSONPath, mode: OptionsDecoder.Mode) throws -> BuildResult {
        if let plugin {
            var checker = PluginOptions(mode: mode)
            let options = try checker.convert(node, schema: plugin.description.options, at: path)
            let step = PluginStep(description: plugin.description, executable: plugin.executable, options: options)
            return BuildResult(
                step: step, unknownKeys: checker.unknownKeys,
                requestedKeys: Set(plugin.description.options.properties.map(\.name)))
        }
        var result = try Self.decode(optionsType, from: node, at: path, mode: mode)
        let options = result.options
        guard mode == .validation && Self.containsReferences(node) else {
            result.build.step = try makeStep(options)
            return result.build
        }
        do {
            result.build.step = try makeStep(options)
        } catch StepError.invalidOption(let option, let message) where Self.isKnownNow(option, in: node, documentation: documentation.options) {
            // A problem with an option written without `${…}`, that no `${…}` elsewhere can change, is found now
            // (a shell `run` string without `"shell": true`), not when the run reaches the step.
            throw StepError.invalidOption(option, message)
        } catch {
            result.build.step = nil
        }
        return result.build
    }

    /// Whether `init`'s verdict on `option` is final during validation: the option is written without `${…}`, and
    /// every option that holds one is text (kept as written), not a bool, number or choice (which decoding replaced
    /// by a stand-in the verdict may rest on).
    static func isKnownNow(_ option: String, in node: JSONNode, documentation: [StepDocumentation.Option]) -> Bool {
        guard let value = node[option], !containsReferences(value) else { return false }
        let byName = Dictionary(documentation.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for member in node.members ?? [] where containsReferences(member.value) {
            guard let declared = byName[member.key], declared.values == nil, declared.minimum == nil,
                !declared.type.contains("bool"), !declared.type.contains("number")
            else { return false }
        }
        return true
    }

    /// The keys of `with` its options never ask for, found by decoding alone: also when the step's `init` refuses the
    /// options (a misspelt `projct` leaves neither 'project' nor 'workspace', which `init` reports).
    package func unknownKeys(in node: JSONNode, at path: JSONPath) -> [OptionsDecoder.UnknownKey] {
        if let plugin {
            var checker = PluginOptions(mode: .validation)
            _ = try? checker.convert(node, schema: plugin.description.options, at: path)
            return checker.unknownKeys
        }
        do {
            return try Self.decode(optionsType, from: node, at: path, mode: .validation).build.unknownKeys
        } catch let failure as OptionsDecoder.Failure {
            return failure.unknownKeys
        } catch {
            return []
        }
    }

    /// Decodes one options type; generic so the existential `optionsType` is opened for the decoder.
    private static func decode<Options: StepOptions>(
        _ type: Options.Type, from node: JSONNode, at path: JSONPath,
        mode: OptionsDecoder.Mode
    ) throws -> (options: any StepOptions, build: BuildResult) {
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
