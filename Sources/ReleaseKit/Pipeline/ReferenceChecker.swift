import ReleaseSteps
import ReleaseSupport

/// Checks what refers to what: `needs`, `${...}` references, options, conditions, and the graph they make.
struct ReferenceChecker {
    let definition: PipelineDefinition
    let registry: StepRegistry
    let extraVariables: Set<String>
    /// The steps validation builds whole (options without `${…}`), handed to the validated pipeline.
    let built = BuiltSteps()

    /// Where each unknown variable is used: one error for each name, however many places use it.
    typealias UnknownUses = [String: [(location: SourceLocation, path: JSONPath)]]

    func check(into diagnostics: inout DiagnosticList) -> ValidatedPipeline? {
        let steps = definition.steps
        let ids = uniqueIDs(of: steps, into: &diagnostics)
        var unknown: UnknownUses = [:]
        let variables = checkVariables(ids: ids, unknown: &unknown, into: &diagnostics)
        let outputUses = checkSteps(ids: ids, variables: variables, unknown: &unknown, into: &diagnostics)
        reportUnknownVariables(unknown, known: variables.known, into: &diagnostics)
        guard let explicit = explicitDependencies(of: steps, ids: ids, into: &diagnostics) else { return nil }
        let graphIDs = explicit.ids
        var combined = explicit.needs
        let implied = addOutputEdges(steps: steps, ids: ids, graphIDs: graphIDs, outputUses: outputUses, to: &combined, into: &diagnostics)
        let pathNeeds = addPathEdges(steps: steps, ids: ids, graph: &combined, into: &diagnostics)
        guard diagnostics.isEmpty else { return nil }
        return ValidatedPipeline(
            definition: definition,
            graph: StepGraph(ids: graphIDs, dependencies: combined),
            outputUses: outputUses,
            impliedNeeds: implied,
            pathNeeds: pathNeeds,
            registry: registry,
            builtSteps: built
        )
    }

    /// Each step by id, reporting a second step with an id already used.
    private func uniqueIDs(of steps: [StepDefinition], into diagnostics: inout DiagnosticList) -> [String: StepDefinition] {
        var ids: [String: StepDefinition] = [:]
        for step in steps {
            if let first = ids[step.id] {
                diagnostics.add("duplicate step id '\(step.id)' (first used by the step at line \(first.location.line))", at: step.location, step.path.appending("id"))
            } else {
                ids[step.id] = step
            }
        }
        return ids
    }

    /// The pipeline's and profiles' variables: the names known, and what each one's definitions refer to.
    private struct Variables {
        var known: Set<String>
        var references: [String: [TemplateReference]]

        /// The steps whose outputs variable `name` uses, through other variables too.
        func outputsUsed(by name: String) -> Set<String> {
            var seen: Set<String> = []
            return outputsUsed(by: name, seen: &seen)
        }

        private func outputsUsed(by name: String, seen: inout Set<String>) -> Set<String> {
            guard seen.insert(name).inserted else { return [] }
            var result: Set<String> = []
            for reference in references[name] ?? [] {
                switch reference {
                case .stepOutput(let step, _): result.insert(step)
                case .variable(let inner): result.formUnion(outputsUsed(by: inner, seen: &seen))
                default: break
                }
            }
            return result
        }
    }

    /// Checks every variable definition's references, and reports variables that refer to each other in a cycle.
    private func checkVariables(ids: [String: StepDefinition], unknown: inout UnknownUses, into diagnostics: inout DiagnosticList) -> Variables {
        var variableDefinitions: [String: [VariableDefinition]] = [:]
        for variable in definition.variables + definition.profiles.flatMap(\.variables) {
            variableDefinitions[variable.name, default: []].append(variable)
        }
        let knownVariables = Set(variableDefinitions.keys).union(extraVariables)
        var variableReferences: [String: [TemplateReference]] = [:]
        for (name, definitions) in variableDefinitions {
            for variable in definitions {
                let references = parseReferences(variable.value, location: variable.location, path: variable.path, owner: nil, into: &diagnostics)
                variableReferences[name, default: []].append(contentsOf: references)
                checkReferences(
                    references, location: variable.location, path: variable.path, owner: nil, ids: ids, knownVariables: knownVariables, unknown: &unknown, into: &diagnostics)
            }
        }
        if let cycle = variableCycle(variableReferences) {
            let variable = variableDefinitions[cycle[0]]?.first
            diagnostics.add("variables refer to each other in a cycle: \(cycle.joined(separator: " -> "))", at: variable?.location, variable?.path)
        }
        return Variables(known: knownVariables, references: variableReferences)
    }

    /// Checks each step's needs, options, references and condition; returns the steps whose outputs each one uses.
    private func checkSteps(
        ids: [String: StepDefinition], variables: Variables, unknown: inout UnknownUses,
        into diagnostics: inout DiagnosticList
    ) -> [String: Set<String>] {
        let stepIDs = definition.steps.map(\.id)
        var outputUses: [String: Set<String>] = [:]
        for step in definition.steps {
            for (offset, need) in step.needs.enumerated() {
                let location = step.needsLocations[offset]
                let path = step.path.appending("needs").appending(offset)
                if need == step.id {
                    diagnostics.add("step '\(step.id)' needs itself", at: location, path)
                } else if ids[need] == nil {
                    diagnostics.add("step '\(step.id)' needs '\(need)', which is not a step" + Suggestion.hint(for: need, in: stepIDs), at: location, path)
                }
            }
            if let kind = registry[step.uses] {
                let notEnabled = checkScriptEnabled(step, kind: kind, into: &diagnostics)
                checkOptions(step, kind: kind, reported: notEnabled ? kind.shellScript?.script : nil, into: &diagnostics)
                if !notEnabled { checkShellScript(step, kind: kind, into: &diagnostics) }
            }
            outputUses[step.id] = checkStepReferences(step, ids: ids, variables: variables, unknown: &unknown, into: &diagnostics)
            if let when = step.when { checkProfileNames(in: when, step: step, into: &diagnostics) }
        }
        return outputUses
    }

    /// Checks the references in `step`'s options; returns the other steps whose outputs it uses, directly or through
    /// variables.
    private func checkStepReferences(
        _ step: StepDefinition, ids: [String: StepDefinition], variables: Variables,
        unknown: inout UnknownUses, into diagnostics: inout DiagnosticList
    ) -> Set<String> {
        var uses: Set<String> = []
        step.forEachTemplate { text, node, path in
            let references = parseReferences(text, location: node.location, path: path, owner: step.id, into: &diagnostics)
            checkReferences(references, location: node.location, path: path, owner: step, ids: ids, knownVariables: variables.known, unknown: &unknown, into: &diagnostics)
            for reference in references {
                switch reference {
                case .stepOutput(let producer, _) where producer != step.id && ids[producer] != nil: uses.insert(producer)
                case .variable(let name):
                    uses.formUnion(variables.outputsUsed(by: name).subtracting([step.id]).filter { ids[$0] != nil })
                default: break
                }
            }
        }
        return uses
    }

    /// The graph's step ids (each once, in declaration order) and each step's explicit `needs`, or nil after reporting
    /// a cycle of them: explicit needs are checked first, so a plain cycle is reported as one.
    private func explicitDependencies(
        of steps: [StepDefinition], ids: [String: StepDefinition],
        into diagnostics: inout DiagnosticList
    ) -> (ids: [String], needs: [String: [String]])? {
        var explicit: [String: [String]] = [:]
        for step in steps { explicit[step.id] = step.needs.filter { ids[$0] != nil && $0 != step.id } }
        var seenIDs: Set<String> = []
        let explicitGraph = StepGraph(ids: steps.map(\.id).filter { seenIDs.insert($0).inserted }, dependencies: explicit)
        if let cycle = explicitGraph.findCycle() {
            let step = ids[cycle[0]]!
            diagnostics.add(
                "steps wait for each other in a cycle: \(cycle.joined(separator: " -> ")) (each must finish before the next starts)", at: step.location,
                step.path.appending("needs"))
            return nil
        }
        return (explicitGraph.ids, explicit)
    }

    /// Adds the edges output uses imply to `graph`, reporting a use of a step that runs after the user; returns the
    /// edges added. Usually they make no cycle: all are added and checked once (linear). Only when they do are they
    /// added one at a time, to name the use that closes the cycle.
    private func addOutputEdges(
        steps: [StepDefinition], ids: [String: StepDefinition], graphIDs: [String], outputUses: [String: Set<String>],
        to graph: inout [String: [String]], into diagnostics: inout DiagnosticList
    ) -> [String: [String]] {
        var implied: [String: [String]] = [:]
        var all = graph
        for step in steps {
            for producer in outputUses[step.id] ?? [] where !(all[step.id] ?? []).contains(producer) { all[step.id, default: []].append(producer) }
        }
        let needsOneByOne = StepGraph(ids: graphIDs, dependencies: all).findCycle() != nil
        let position = { (id: String) in ids[id]?.index ?? 0 }
        for step in steps {
            for producer in (outputUses[step.id] ?? []).sorted(by: { position($0) < position($1) }) where !(graph[step.id] ?? []).contains(producer) {
                if needsOneByOne, let path = StepGraph(ids: graphIDs, dependencies: graph).dependencyPath(from: producer, to: step.id) {
                    diagnostics.add(
                        "step '\(step.id)' uses outputs of '\(producer)', which is not upstream of it ('\(producer)' runs after '\(step.id)': \(path.reversed().joined(separator: " -> ")))",
                        at: step.location, step.path.appending("with"))
                    continue
                }
                graph[step.id, default: []].append(producer)
                implied[step.id, default: []].append(producer)
            }
        }
        return implied
    }

    // MARK: Paths

    /// Implicit edges (DESIGN §4): a step that reads a path another step creates (an option declared
    /// ``OptionFormat/output``, such as `creates` or `output`) runs after that step even without `needs`, unless the
    /// graph already orders the two (a clean-up step that deletes the path first, with the creator needing it).
    /// Two unordered creators of one path are ambiguous: an error names both.
    /// - Returns: for each reader, the creators it now needs and the path that made it.
    private func addPathEdges(
        steps: [StepDefinition], ids: [String: StepDefinition], graph: inout [String: [String]],
        into diagnostics: inout DiagnosticList
    ) -> [String: [String: String]] {
        var creators: [String: [String]] = [:]
        var createdBy: [String: Set<String>] = [:]
        let variables = fixedVariables
        for step in steps {
            for path in createdPaths(of: step, variables: variables) where !(creators[path] ?? []).contains(step.id) {
                creators[path, default: []].append(step.id)
                createdBy[step.id, default: []].insert(path)
            }
        }
        guard !creators.isEmpty else { return [:] }
        var result: [String: [String: String]] = [:]
        let order = graph.keys.sorted { (ids[$0]?.index ?? 0) < (ids[$1]?.index ?? 0) }
        for step in steps {
            var reported: Set<String> = []
            forEachString(in: step.with, path: step.path.appending("with")) { text, node, _ in
                let read = normalizedPath(text, variables: variables)
                guard !(createdBy[step.id] ?? []).contains(read), let (path, makers) = creatorsOf(read, in: creators) else { return }
                let current = StepGraph(ids: order, dependencies: graph)
                // Creators the graph already runs after the reader are left alone: the order is stated.
                let candidates = makers.filter { $0 != step.id && current.dependencyPath(from: $0, to: step.id) == nil }
                let latest = candidates.filter { candidate in
                    !candidates.contains { other in other != candidate && current.dependencyPath(from: other, to: candidate) != nil }
                }
                if latest.count > 1 {
                    guard reported.insert(path).inserted else { return }
                    diagnostics.add(
                        "step '\(step.id)' reads '\(Echo.text(text))', which both '\(latest[0])' and '\(latest[1])' create; add 'needs' to say which it waits for, or to order them",
                        at: node.location, step.path.appending("needs"))
                    return
                }
                guard let creator = latest.first, !(graph[step.id] ?? []).contains(creator),
                    current.dependencyPath(from: step.id, to: creator) == nil
                else { return }
                graph[step.id, default: []].append(creator)
                result[step.id, default: [:]][creator] = path
            }
        }
        return result
    }

    /// The paths `step` declares it creates, normalized.
    private func createdPaths(of step: StepDefinition, variables: [String: String]) -> [String] {
        guard let kind = registry[step.uses] else { return [] }
        var paths: [String] = []
        for option in kind.optionsType.declaredOptions where option.declaration.createsPath {
            guard let node = step.with[option.key] else { continue }
            forEachString(in: node, path: .root) { text, _, _ in paths.append(normalizedPath(text, variables: variables)) }
        }
        return paths.filter { !$0.isEmpty }
    }

    /// The created path that `read` is or lies inside, with its creators.
    private func creatorsOf(_ read: String, in creators: [String: [String]]) -> (String, [String])? {
        guard !read.isEmpty else { return nil }
        if let makers = creators[read] { return (read, makers) }
        var prefix = read
        while let slash = prefix.lastIndex(of: "/") {
            prefix = String(prefix[..<slash])
            if let makers = creators[prefix] { return (prefix, makers) }
        }
        return nil
    }

    /// `text` with the pipeline's fixed variables substituted (those defined once, not by a profile, without
    /// references of their own) and `./`, doubled and trailing slashes removed, so `${build_dir}/App.zip` and
    /// `./build/App.zip` compare equal. Other references stay as written: equal templates are equal paths.
    private func normalizedPath(_ text: String, variables: [String: String]) -> String {
        var path = text
        if Template.mayContainReferences(path) {
            for _ in 0..<4 where path.contains("${") {
                for (name, value) in variables { path = path.replacingOccurrences(of: "${\(name)}", with: value) }
            }
        }
        while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "." ? "" : path
    }

    /// Variables with one value whatever the profile.
    private var fixedVariables: [String: String] {
        let overridden = Set(definition.profiles.flatMap(\.variables).map(\.name))
        var values: [String: String] = [:]
        for variable in definition.variables where !overridden.contains(variable.name) { values[variable.name] = variable.value }
        return values
    }

    // MARK: Options

    /// A string in a script option whose switch is not on (`"run": "make ${target}"` without `"shell": true`) is an
    /// error at `validate`, whatever `${…}` it holds: the step would refuse it when the run reaches it.
    /// - Returns: whether it reported one.
    private func checkScriptEnabled(_ step: StepDefinition, kind: StepKind, into diagnostics: inout DiagnosticList) -> Bool {
        guard let option = kind.shellScript, let switchName = option.enabledBy, let node = step.with[option.script],
            node.string != nil
        else { return false }
        switch step.with[switchName]?.value {
        case nil, .bool(false)?, .string("false")?: break
        default: return false  // true, or a `${…}` known at run time
        }
        diagnostics.add("step '\(step.id)' (\(step.uses)): \(option.stringNeedsEnablingMessage)", at: node, step.path.appending("with").appending(option.script))
        return true
    }

    /// - Parameter reported: an option whose problem is reported already; `init`'s complaint about it is not repeated.
    private func checkOptions(_ step: StepDefinition, kind: StepKind, reported: String? = nil, into diagnostics: inout DiagnosticList) {
        let path = step.path.appending("with")
        var failures: [OptionsDecoder.Failure] = []
        var unknownKeys: [OptionsDecoder.UnknownKey] = []
        /// `init`'s refusal, said after the unknown keys: a misspelt key may be its cause.
        var refusal: (option: String, message: String)?
        do {
            let result = try kind.make(with: step.with, at: path, mode: .validation)
            unknownKeys = result.unknownKeys
            if let made = result.step, !StepKind.containsReferences(step.with) { built.keep(made, id: step.id, options: step.with) }
        } catch let failure as OptionsDecoder.Failure {
            if failure.isPending { return }
            failures = failure.all
            unknownKeys = failure.unknownKeys
        } catch StepError.invalidOption(let option, _) where option == reported {
            // Said by the caller already.
        } catch StepError.invalidOption(let option, let message) {
            refusal = (option, message)
            unknownKeys = kind.unknownKeys(in: step.with, at: path)
        } catch {
            diagnostics.add("step '\(step.id)' (\(step.uses)): \(error)", at: step.with, path)
        }
        // A misspelt required option is one problem, said once: the unknown key with its did-you-mean, and the
        // missing option pointing at it; in `with` or in an object inside it.
        let documented = kind.documentation.options.map(\.name)
        var misspelt: [String: String] = [:]
        /// Where each option a misspelt key stands for belongs (`$.steps[0].with.channel` for `chanel`).
        var misspeltPaths: Set<JSONPath> = []
        for unknown in unknownKeys {
            let topLevel = unknown.path.components.count == path.components.count + 1
            let suggestion = Suggestion.closest(to: unknown.key, in: topLevel ? documented : unknown.known)
            if let suggestion {
                if topLevel { misspelt[suggestion] = unknown.key }
                misspeltPaths.insert(JSONPath(unknown.path.components.dropLast()).appending(suggestion))
            }
            diagnostics.add(
                "step '\(step.id)': unknown option '\(unknown.key)' for \(step.uses)" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""), at: unknown.location, unknown.path)
        }
        for failure in failures {
            if let missing = Self.missingOption(in: failure.message), misspeltPaths.contains(failure.path.appending(missing)) { continue }
            diagnostics.add("step '\(step.id)' (\(step.uses)): \(failure.message)", at: failure.location, failure.path)
        }
        if let refusal {
            // "give 'project' or 'workspace'" when 'projct' is there: the did-you-mean above says it all.
            let absent = step.with[refusal.option] == nil
            let causedByTypo = absent && misspelt.keys.contains { $0 == refusal.option || refusal.message.contains("'\($0)'") }
            if !causedByTypo {
                let node = step.with[refusal.option] ?? step.with
                diagnostics.add("step '\(step.id)' (\(step.uses)): \(refusal.message)", at: node, absent ? path : path.appending(refusal.option))
            }
        }
    }

    /// A shell script's references must be in places where quoting keeps their values text (``ShellScript``), and
    /// its environment may not set the variables that carry them. The script of an argv `["sh", "-c", "…"]` is one
    /// too; where its values cannot travel in the environment (another option, a plugin, `env -i`) a reference in it
    /// is refused with the safe spelling.
    private func checkShellScript(_ step: StepDefinition, kind: StepKind, into diagnostics: inout DiagnosticList) {
        let withPath = step.path.appending("with")
        let scriptNode = kind.shellScript.flatMap { step.with[$0.script] }
        for problem in ShellScript.argvProblems(in: step.with, handled: scriptNode) {
            diagnostics.add("step '\(step.id)': '\(Echo.text(problem.source))' is \(problem.reason)", at: problem.node, withPath.appending(problem.path))
        }
        guard let option = kind.shellScript, let node = scriptNode else { return }
        let text: String
        var path = withPath.appending(option.script)
        var at = node
        if let string = node.string, option.acceptsString {
            text = string
        } else if case .array(let items) = node.value, case let argv = items.compactMap(\.string), argv.count == items.count,
            let index = ShellInvocation.scriptIndex(argv)
        {
            text = argv[index]
            path = path.appending(index)
            at = items[index]
        } else {
            return
        }
        guard Template.mayContainReferences(text), let script = try? ShellScript(parsing: text) else { return }
        for problem in script.problems {
            diagnostics.add("step '\(step.id)': '\(Echo.text(problem.source))' in the shell script is \(problem.reason)", at: at, path)
        }
        for member in step.with[option.environment]?.members ?? [] where member.key.hasPrefix(ShellScript.variablePrefix) {
            diagnostics.add(
                "step '\(step.id)': '\(Echo.text(member.key))' is reserved for the values of the script's ${…} references (\(ShellScript.variablePrefix)1, \(ShellScript.variablePrefix)2, …)",
                at: member.keyLocation, withPath.appending(option.environment).appending(member.key))
        }
    }

    /// The option a "missing required option 'x'" message names.
    private static func missingOption(in message: String) -> String? {
        let prefix = "missing required option '"
        guard message.hasPrefix(prefix), message.hasSuffix("'") else { return nil }
        return String(message.dropFirst(prefix.count).dropLast())
    }

    // MARK: References

    private func parseReferences(_ text: String, location: SourceLocation, path: JSONPath, owner: String?, into diagnostics: inout DiagnosticList) -> [TemplateReference] {
        guard Template.mayContainReferences(text) else { return [] }
        var references: [TemplateReference] = []
        for result in Template.scan(text) {
            switch result {
            case .success(let reference): references.append(reference)
            case .failure(let error): diagnostics.add(error.message, at: location, path)
            }
        }
        return references
    }

    /// One error for each unknown variable, at its first use, with a note of the other lines that use it: a typo in a
    /// variable used by twenty steps is one mistake, not twenty.
    private func reportUnknownVariables(
        _ unknown: [String: [(location: SourceLocation, path: JSONPath)]], known: Set<String>,
        into diagnostics: inout DiagnosticList
    ) {
        let first = { (uses: [(location: SourceLocation, path: JSONPath)]) in uses.map { ($0.location.line, $0.location.column) }.min(by: <)! }
        for name in unknown.keys.sorted(by: { first(unknown[$0]!) < first(unknown[$1]!) }) {
            let uses = unknown[name]!.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            let hint = Suggestion.hint(for: name, in: known)
            var message = "unknown variable '${\(Echo.text(name))}'\(hint); define it in 'variables' or pass --var \(Echo.text(name))=VALUE"
            let others = uses.dropFirst()
            if !others.isEmpty {
                var lines: [Int] = []
                for use in others where lines.last != use.location.line { lines.append(use.location.line) }
                let shown = lines.prefix(20).map(String.init).joined(separator: ", ") + (lines.count > 20 ? ", …" : "")
                message += "; also used in \(others.count) other place\(others.count == 1 ? "" : "s") (line\(lines.count == 1 ? "" : "s") \(shown))"
            }
            diagnostics.add(message, at: uses[0].location, uses[0].path)
        }
    }

    private func checkReferences(
        _ references: [TemplateReference], location: SourceLocation, path: JSONPath, owner: StepDefinition?, ids: [String: StepDefinition], knownVariables: Set<String>,
        unknown: inout [String: [(location: SourceLocation, path: JSONPath)]], into diagnostics: inout DiagnosticList
    ) {
        for reference in references {
            switch reference {
            case .variable(let name):
                if !knownVariables.contains(name) { unknown[name, default: []].append((location, path)) }
            case .stepOutput(let producer, let key):
                guard let producerStep = ids[producer] else {
                    diagnostics.add(
                        "'${steps.\(producer).outputs.\(key)}' refers to step '\(producer)', which is not a step" + Suggestion.hint(for: producer, in: ids.keys), at: location, path
                    )
                    continue
                }
                if producer == owner?.id {
                    diagnostics.add("step '\(producer)' cannot use its own outputs ('${steps.\(producer).outputs.\(key)}')", at: location, path)
                    continue
                }
                if let kind = registry[producerStep.uses], !kind.documentation.dynamicOutputs {
                    let outputs = kind.documentation.outputs.map(\.name)
                    if !outputs.contains(key) {
                        diagnostics.add(
                            "step '\(producer)' (\(producerStep.uses)) has no output '\(key)'" + Suggestion.hint(for: key, in: outputs)
                                + "; its outputs: \(outputs.isEmpty ? "none" : outputs.joined(separator: ", "))", at: location, path)
                    }
                }
            case .now(let format?):
                if format.contains("'") && format.filter({ $0 == "'" }).count % 2 == 1 {
                    diagnostics.add("unbalanced quote in date format '\(format)'", at: location, path)
                }
            case .environment, .secret, .git, .profile, .now:
                break
            }
        }
    }

    private func checkProfileNames(in condition: Condition, step: StepDefinition, into diagnostics: inout DiagnosticList) {
        let names = definition.profiles.map(\.name)
        switch condition {
        case .profile(let patterns):
            for pattern in patterns where !Glob.isPattern(pattern) && !names.contains(pattern) {
                let known = names.isEmpty ? "the pipeline defines no profiles" : "profiles: \(names.joined(separator: ", "))"
                diagnostics.add(
                    "step '\(step.id)': 'when' names profile '\(pattern)', which is not defined" + Suggestion.hint(for: pattern, in: names) + "; \(known)", at: step.location,
                    step.path.appending("when"))
            }
        case .all(let conditions), .any(let conditions):
            for condition in conditions { checkProfileNames(in: condition, step: step, into: &diagnostics) }
        case .not(let inner):
            checkProfileNames(in: inner, step: step, into: &diagnostics)
        case .branch, .env, .os:
            break
        }
    }

    private func variableCycle(_ references: [String: [TemplateReference]]) -> [String]? {
        var dependencies: [String: [String]] = [:]
        for (name, refs) in references {
            dependencies[name] = refs.compactMap {
                if case .variable(let inner) = $0, references[inner] != nil { return inner }
                return nil
            }
        }
        return StepGraph(ids: references.keys.sorted(), dependencies: dependencies).findCycle()
    }
}

/// Calls `body` for every string value in `node`, with its node and path.
package func forEachString(in node: JSONNode, path: JSONPath, _ body: (String, JSONNode, JSONPath) -> Void) {
    switch node.value {
    case .string(let text): body(text, node, path)
    case .array(let items):
        for (index, item) in items.enumerated() { forEachString(in: item, path: path.appending(index), body) }
    case .object(let members):
        for member in members { forEachString(in: member.value, path: path.appending(member.key), body) }
    case .null, .bool, .number: break
    }
}
