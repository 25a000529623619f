import Foundation
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// Substitutes `${...}` references with this run's values.
///
/// A string that is exactly one reference keeps the value's type (a list output stays a list, a number a
/// number), so `"assets": "${steps.dsyms.outputs.paths}"` gives the step an array.
package struct Interpolator: Sendable {
    /// Variable templates after profile and `--var` overrides.
    package var variables: [String: String]
    package var environment: [String: String]
    package var profile: String?
    package var git: GitInfo
    package var now: Date
    package var masker: SecretMasker
    /// Outputs of steps that ran, or that promised them (dry runs, preflight).
    package var outputs: [String: [String: OutputValue]]
    /// Steps whose `outputs` are promises (preflight, dry runs): a key they did not promise is not known yet,
    /// rather than missing.
    package var promisedSteps: Set<String> = []
    /// Whether `${secrets.NAME}` resolves to itself, unresolved, instead of the secret's value: what the journal's
    /// fingerprints are computed from, so nothing derived from a secret is stored (an unsalted hash of a short
    /// secret is recovered in seconds).
    package var secretsAsNames = false

    package init(
        variables: [String: String], environment: [String: String], profile: String?, git: GitInfo,
        now: Date, masker: SecretMasker, outputs: [String: [String: OutputValue]] = [:]
    ) {
        self.variables = variables
        self.environment = environment
        self.profile = profile
        self.git = git
        self.now = now
        self.masker = masker
        self.outputs = outputs
    }

    /// `text` with every reference replaced by its text.
    package func string(_ text: String) throws(ResolutionError) -> String {
        var stack: [String] = []
        return try string(text, stack: &stack)
    }

    /// `node` with references in every string replaced; whole-string references keep their type.
    package func node(_ node: JSONNode) throws(ResolutionError) -> JSONNode {
        switch node.value {
        case .string(let text):
            guard Template.mayContainReferences(text) else { return node }
            let template = try parse(text)
            if let reference = template.wholeReference, case .stepOutput(let step, let key) = reference {
                return JSONNode(try json(for: try output(step, key)), at: node.location)
            }
            var stack: [String] = []
            return JSONNode(.string(try render(template, stack: &stack)), at: node.location)
        case .array(let items):
            var resolved: [JSONNode] = []
            for item in items { resolved.append(try self.node(item)) }
            return JSONNode(.array(resolved), at: node.location)
        case .object(let members):
            var resolved: [JSONNode.Member] = []
            for member in members {
                resolved.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation, value: try self.node(member.value)))
            }
            return JSONNode(.object(resolved), at: node.location)
        case .null, .bool, .number:
            return node
        }
    }

    /// A step's `with` resolved for its kind: as ``node(_:)`` does, except that a shell script (``StepKind/shellScript``,
    /// a string `run` of `shell`) gets its values as environment variables added to the environment option, and
    /// references to them, quoted for their place, in its text (``ShellScript``); a value is never script text.
    /// - Throws: ``ResolutionError``; ``ResolutionError/unsafeShellReference(_:_:)`` for a reference no quoting makes
    ///   safe (`validate` reports those first).
    package func options(_ with: JSONNode, of kind: StepKind) throws(ResolutionError) -> JSONNode {
        let scriptNode = kind.shellScript.flatMap { with[$0.script] }
        // An argv `["sh", "-c", "… ${x} …"]` anywhere else, or one that clears the environment, cannot be made safe.
        if let problem = ShellScript.argvProblems(in: with, handled: scriptNode).first {
            throw .unsafeShellReference(problem.source, problem.reason)
        }
        guard let option = kind.shellScript, let members = with.members, let scriptNode else { return try node(with) }
        var stack: [String] = []
        let resolve = { (reference: TemplateReference) throws(ResolutionError) -> String in try self.value(of: reference, stack: &stack) }
        let renderedScript: JSONNode
        let environment: [String: String]
        if let text = scriptNode.string, option.acceptsString {
            guard Template.mayContainReferences(text) else { return try node(with) }
            let rendered = try Self.render(text, resolve)
            renderedScript = JSONNode(.string(rendered.script), at: scriptNode.location)
            environment = rendered.environment
        } else if case .array(let items) = scriptNode.value, let argv = Self.strings(items),
            let index = ShellInvocation.scriptIndex(argv), Template.mayContainReferences(argv[index])
        {
            // The script of `["sh", "-c", "…"]` is a script like a `shell: true` string; the other words are argv.
            let rendered = try Self.render(argv[index], resolve)
            var resolvedItems: [JSONNode] = []
            for (offset, item) in items.enumerated() {
                resolvedItems.append(offset == index ? JSONNode(.string(rendered.script), at: item.location) : try node(item))
            }
            renderedScript = JSONNode(.array(resolvedItems), at: scriptNode.location)
            environment = rendered.environment
        } else {
            return try node(with)
        }
        let rendered = (script: renderedScript, environment: environment)
        var resolved: [JSONNode.Member] = []
        var environmentSet = false
        for member in members {
            var value: JSONNode
            if member.key == option.script {
                value = rendered.script
            } else {
                value = try node(member.value)
            }
            if member.key == option.environment, case .object(var entries) = value.value {
                entries.removeAll { rendered.environment[$0.key] != nil }
                for (name, text) in rendered.environment.sorted(by: { $0.key < $1.key }) {
                    entries.append(JSONNode.Member(key: name, keyLocation: member.keyLocation, value: JSONNode(.string(text), at: member.value.location)))
                }
                value = JSONNode(.object(entries), at: member.value.location)
                environmentSet = true
            }
            resolved.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation, value: value))
        }
        if !environmentSet {
            let entries = rendered.environment.sorted(by: { $0.key < $1.key }).map {
                JSONNode.Member(key: $0.key, keyLocation: scriptNode.location, value: JSONNode(.string($0.value), at: scriptNode.location))
            }
            resolved.append(JSONNode.Member(key: option.environment, keyLocation: scriptNode.location, value: JSONNode(.object(entries), at: scriptNode.location)))
        }
        return JSONNode(.object(resolved), at: with.location)
    }

    /// `text` parsed and rendered as a script whose values travel in environment variables.
    private static func render(
        _ text: String, _ resolve: (TemplateReference) throws(ResolutionError) -> String
    ) throws(ResolutionError) -> (script: String, environment: [String: String]) {
        let script: ShellScript
        do {
            script = try ShellScript(parsing: text)
        } catch {
            throw .invalidTemplate(error.message)
        }
        guard let rendered = try script.render(resolve) else {
            let problem = script.problems.first
            throw .unsafeShellReference(problem?.source ?? "", problem?.reason ?? "")
        }
        return rendered
    }

    /// The items' strings, or nil when one is not a string.
    private static func strings(_ items: [JSONNode]) -> [String]? {
        var strings: [String] = []
        for item in items {
            guard let text = item.string else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The value of one variable, with its own references resolved.
    package func variable(_ name: String) throws(ResolutionError) -> String {
        var stack: [String] = []
        return try variable(name, stack: &stack)
    }

    /// Every `${secrets.NAME}` and `${env.NAME}` (without a fallback) in `node` whose value this run does not have,
    /// through the variables it uses, each once, in the order they are written: so preflight names every missing
    /// value of a step at once, not the first one per run.
    package func unsetValues(in node: JSONNode) -> [ResolutionError] {
        var found: [ResolutionError] = []
        var visited: Set<String> = []
        collectUnset(in: node, into: &found, visited: &visited)
        return found
    }

    private func collectUnset(in node: JSONNode, into found: inout [ResolutionError], visited: inout Set<String>) {
        switch node.value {
        case .string(let text): collectUnset(in: text, into: &found, visited: &visited)
        case .array(let items): for item in items { collectUnset(in: item, into: &found, visited: &visited) }
        case .object(let members): for member in members { collectUnset(in: member.value, into: &found, visited: &visited) }
        case .null, .bool, .number: break
        }
    }

    private func collectUnset(in text: String, into found: inout [ResolutionError], visited: inout Set<String>) {
        guard Template.mayContainReferences(text), let template = try? Template(parsing: text) else { return }
        for case .reference(let reference, _) in template.segments {
            var missing: ResolutionError?
            switch reference {
            case .environment(let name, nil) where environment[name] == nil: missing = .environmentNotSet(name)
            case .secret(let name) where !secretsAsNames && (environment[name] ?? "").isEmpty: missing = .secretNotSet(name)
            case .variable(let name):
                // A variable is followed once (which also ends a cycle, reported elsewhere).
                if let raw = variables[name], visited.insert(name).inserted { collectUnset(in: raw, into: &found, visited: &visited) }
            default: break
            }
            if let missing, !found.contains(missing) { found.append(missing) }
        }
    }

    // MARK: Internals

    private func parse(_ text: String) throws(ResolutionError) -> Template {
        do {
            return try Template(parsing: text)
        } catch {
            throw .invalidTemplate(error.message)
        }
    }

    private func string(_ text: String, stack: inout [String]) throws(ResolutionError) -> String {
        guard Template.mayContainReferences(text) else { return text }
        return try render(try parse(text), stack: &stack)
    }

    private func render(_ template: Template, stack: inout [String]) throws(ResolutionError) -> String {
        var result = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text): result += text
            case .reference(let reference, _): result += try value(of: reference, stack: &stack)
            }
        }
        return result
    }

    private func variable(_ name: String, stack: inout [String]) throws(ResolutionError) -> String {
        guard let raw = variables[name] else { throw .variableNotInProfile(name, profile: profile) }
        if let start = stack.firstIndex(of: name) { throw .variableCycle(Array(stack[start...]) + [name]) }
        stack.append(name)
        defer { stack.removeLast() }
        return try string(raw, stack: &stack)
    }

    private func value(of reference: TemplateReference, stack: inout [String]) throws(ResolutionError) -> String {
        switch reference {
        case .variable(let name):
            return try variable(name, stack: &stack)
        case .environment(let name, let fallback):
            if let value = environment[name] { return value }
            if let fallback { return fallback }
            throw .environmentNotSet(name)
        case .secret(let name):
            if secretsAsNames { return "${secrets.\(name)}" }
            guard let value = environment[name], !value.isEmpty else { throw .secretNotSet(name) }
            masker.add(value)
            return value
        case .stepOutput(let step, let key):
            return try output(step, key).text
        case .git(let field):
            let problem = git.problem ?? "not known"
            switch field {
            case .branch:
                guard let branch = git.branch else { throw .git(field: field.rawValue, problem: git.problem ?? "HEAD is detached and no CI branch variable is set") }
                return branch
            case .sha:
                guard let sha = git.sha else { throw .git(field: field.rawValue, problem: problem) }
                return sha
            case .shortSHA:
                guard let sha = git.sha else { throw .git(field: field.rawValue, problem: problem) }
                return String(sha.prefix(7))
            case .commitCount:
                guard let count = git.commitCount else { throw .git(field: field.rawValue, problem: problem) }
                return String(count)
            }
        case .profile:
            guard let profile else { throw .noProfile }
            return profile
        case .now(let format):
            return Timestamp.format(now, pattern: format)
        }
    }

    private func output(_ step: String, _ key: String) throws(ResolutionError) -> OutputValue {
        guard let values = outputs[step] else { throw .pendingOutput(step: step, key: key) }
        guard let value = values[key] else {
            if promisedSteps.contains(step) { throw .pendingOutput(step: step, key: key) }
            throw .missingOutput(step: step, key: key, available: values.keys.sorted())
        }
        return value
    }

    private func json(for value: OutputValue) throws(ResolutionError) -> JSONNode.Value {
        switch value {
        case .string(let text), .path(let text): return .string(text)
        case .number(let number): return .number(number, text: value.text)
        case .bool(let flag): return .bool(flag)
        case .list(let items):
            var nodes: [JSONNode] = []
            for item in items { nodes.append(JSONNode(try json(for: item))) }
            return .array(nodes)
        }
    }

}
