import Foundation
import ReleaseSteps
import ReleaseSupport

/// Reads a pipeline file and checks everything that can be checked without running anything: structure, step
/// kinds and their options, ids, `needs`, references, cycles. Every problem is reported, not the first.
package struct PipelineLoader: Sendable {
    /// The format versions this release reads.
    package static let supportedVersions = [1]
    /// The keys of each object, from ``PipelineKey/all``. `$schema` is accepted and ignored, so editors can
    /// autocomplete from `release schema` (DESIGN §4).
    static let topLevelKeys = PipelineKey.keys(in: .pipeline).map(\.name)
    static let profileKeys = PipelineKey.keys(in: .profile).map(\.name)
    static let stepKeys = PipelineKey.keys(in: .step).map(\.name)

    /// The step kinds pipelines may use; nil for the built-in ones.
    package let registry: StepRegistry?
    /// Plugin kinds that could not be described, with why: a step using one gets this instead of "unknown kind".
    package let unavailablePlugins: [String: String]

    package init(registry: StepRegistry? = nil, unavailablePlugins: [String: String] = [:]) {
        self.registry = registry
        self.unavailablePlugins = unavailablePlugins
    }

    /// Loads the file at `path` with the external step plugins it can use (its `plugins` map and
    /// `release-step-KIND` executables on PATH), described through `plugins`; problems with plugins are reported
    /// with the rest.
    /// - Throws: ``PipelineError``.
    package func load(
        path: String, displayPath: String? = nil, extraVariables: Set<String> = [],
        plugins: PluginResolver
    ) async throws(PipelineError) -> ValidatedPipeline {
        let shown = displayPath ?? path
        let text = try Self.read(path: path, shown: shown)
        let parsed = Self.parse(text, file: shown)
        let resolution = await plugins.resolve(try? parsed.get(), file: shown)
        let loader = PipelineLoader(registry: resolution.registry ?? registry, unavailablePlugins: resolution.unavailable)
        let pipeline: ValidatedPipeline
        var diagnostics = resolution.diagnostics
        do {
            pipeline = try loader.load(parsed, file: shown, extraVariables: extraVariables)
            if diagnostics.isEmpty { return pipeline }
        } catch {
            diagnostics += error.diagnostics
        }
        var all = DiagnosticList(file: shown)
        for diagnostic in diagnostics { all.append(diagnostic) }
        throw .invalid(all.sorted)
    }

    /// Loads the file at `path`; `displayPath` is how messages name it.
    /// - Parameter extraVariables: names given with `--var`, which count as defined.
    /// - Throws: ``PipelineError``.
    package func load(path: String, displayPath: String? = nil, extraVariables: Set<String> = []) throws(PipelineError) -> ValidatedPipeline {
        let shown = displayPath ?? path
        let text = try Self.read(path: path, shown: shown)
        return try load(text: text, file: shown, extraVariables: extraVariables)
    }

    /// Loads pipeline JSON `text`, naming it `file` in messages.
    package func load(text: String, file: String, extraVariables: Set<String> = []) throws(PipelineError) -> ValidatedPipeline {
        try load(Self.parse(text, file: file), file: file, extraVariables: extraVariables)
    }

    /// The file's JSON, or why it is not JSON, as `load` reports it.
    private static func parse(_ text: String, file: String) -> Result<JSONNode, PipelineError> {
        do {
            return .success(try JSONParser.parse(text))
        } catch {
            return .failure(.invalid([Diagnostic(file: file, location: error.location, path: nil, message: "invalid JSON: \(error.message)")]))
        }
    }

    /// Validates the parsed file (parsed once, for its plugins and for this).
    private func load(_ parsed: Result<JSONNode, PipelineError>, file: String, extraVariables: Set<String>) throws(PipelineError) -> ValidatedPipeline {
        let root = try parsed.get()
        let registry: StepRegistry
        do {
            registry = try self.registry ?? StepRegistry.builtIn
        } catch {
            throw .invalid([Diagnostic(file: file, location: nil, path: nil, message: "internal error: \(error) (please report this)")])
        }
        var diagnostics = DiagnosticList(file: file)
        let definition = readDefinition(root, file: file, registry: registry, into: &diagnostics)
        var pipeline: ValidatedPipeline?
        if let definition {
            pipeline = ReferenceChecker(definition: definition, registry: registry, extraVariables: extraVariables)
                .check(into: &diagnostics)
        }
        guard diagnostics.isEmpty, let pipeline else { throw .invalid(diagnostics.sorted) }
        return pipeline
    }

    /// The parsed file at `path`, or nil when it cannot be read or parsed (`load` says why): for finding its
    /// `plugins` without validating it.
    package static func readRoot(path: String) -> JSONNode? {
        guard let text = try? read(path: path, shown: path) else { return nil }
        return try? JSONParser.parse(text)
    }

    /// The file's text.
    /// - Throws: ``PipelineError`` when it cannot be read or is not UTF-8.
    static func read(path: String, shown: String) throws(PipelineError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw .unreadable(path: shown, reason: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let invalid = Self.firstInvalidUTF8(data)
            throw .invalid([
                Diagnostic(
                    file: shown, location: invalid.location, path: nil,
                    message: "the file is not UTF-8 text: byte \(Hex.byte(invalid.byte)) at offset \(invalid.offset) does not start a valid UTF-8 sequence")
            ])
        }
        return text
    }

    // MARK: Structure

    private func readDefinition(_ root: JSONNode, file: String, registry: StepRegistry, into diagnostics: inout DiagnosticList) -> PipelineDefinition? {
        guard let members = root.members else {
            diagnostics.add("a pipeline file must hold a JSON object, found \(root.typeName)", at: root, .root)
            return nil
        }
        checkKeys(members, allowed: Self.topLevelKeys, what: "key", path: .root, into: &diagnostics)
        checkDuplicateKeys(members, path: .root, into: &diagnostics)

        var version = 1
        if let node = root["version"] {
            // `Int(exactly:)`: a version such as 1e19 is outside Int's range, and `Int(_:)` would trap.
            if case .number(let value, let text) = node.value, value.rounded() == value {
                guard let whole = Int(exactly: value), Self.supportedVersions.contains(whole) else {
                    diagnostics.add(
                        "unsupported format version \(text); this release of release reads version \(Self.supportedVersions.map(String.init).joined(separator: ", "))", at: node,
                        .root.appending("version"))
                    return nil
                }
                version = whole
            } else {
                diagnostics.add("'version' must be a whole number, found \(node.found)", at: node, .root.appending("version"))
                return nil
            }
        } else {
            diagnostics.add("missing 'version'; add \"version\": 1", at: root, .root)
        }

        var name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        if let text = readText(root, "name", .pipeline, path: .root, into: &diagnostics) { name = text }
        for key in ["$schema", "description"] { _ = readText(root, key, .pipeline, path: .root, into: &diagnostics) }

        let variables = root["variables"].map { readVariables($0, path: .root.appending("variables"), into: &diagnostics) } ?? []
        if let node = root["plugins"] { checkPlugins(node, into: &diagnostics) }
        let profiles = root["profiles"].map { readProfiles($0, into: &diagnostics) } ?? []
        let runsOn = root["runs_on"].flatMap { readRunner($0, path: .root.appending("runs_on"), into: &diagnostics) }
        if let node = root["tool"], node.members == nil {
            diagnostics.add("'tool' must be an object such as {\"source\": \"download\"}, found \(node.found)", at: node, .root.appending("tool"))
        }
        let attest = readBool(root, "attest", .pipeline, path: .root, into: &diagnostics)

        var steps: [StepDefinition] = []
        if let node = root["steps"] {
            if case .array(let items) = node.value {
                if items.isEmpty { diagnostics.add("'steps' is empty; a pipeline needs at least one step", at: node, .root.appending("steps")) }
                for (index, item) in items.enumerated() {
                    if var step = readStep(item, index: index, registry: registry, into: &diagnostics) {
                        step.runner = resolveRunner(of: step, node: item, pipelineDefault: runsOn, into: &diagnostics)
                        steps.append(step)
                    }
                }
            } else {
                diagnostics.add("'steps' must be an array of step objects, found \(node.found)", at: node, .root.appending("steps"))
            }
        } else {
            diagnostics.add("missing 'steps'", at: root, .root)
        }
        Self.defaultExportProfiles(&steps)
        var definition = PipelineDefinition(
            file: file, version: version, name: name, variables: variables, profiles: profiles,
            steps: steps, runsOn: runsOn)
        definition.tool = root["tool"].flatMap { $0.members == nil ? nil : $0 }
        definition.attest = attest
        return definition
    }

    private func readVariables(_ node: JSONNode, path: JSONPath, into diagnostics: inout DiagnosticList) -> [VariableDefinition] {
        guard let members = node.members else {
            diagnostics.add("'variables' must be an object of names and values, found \(node.found)", at: node, path)
            return []
        }
        checkDuplicateKeys(members, path: path, into: &diagnostics)
        var variables: [VariableDefinition] = []
        for member in members {
            let memberPath = path.appending(member.key)
            if Template.reservedRoots.contains(member.key) {
                diagnostics.add("'\(member.key)' is a reserved name and cannot be a variable", at: member.keyLocation, memberPath)
                continue
            }
            let valid =
                !member.key.isEmpty
                && member.key.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                }
            if !valid {
                diagnostics.add("invalid variable name '\(member.key)': use letters, digits, '_' and '-'", at: member.keyLocation, memberPath)
                continue
            }
            let value: String
            switch member.value.value {
            case .string(let text): value = text
            case .number(_, let text): value = text
            case .bool(let flag): value = flag ? "true" : "false"
            default:
                diagnostics.add("variable '\(member.key)' must be a string, number or boolean, found \(member.value.typeName)", at: member.value, memberPath)
                continue
            }
            variables.append(VariableDefinition(name: member.key, value: value, location: member.value.location, path: memberPath))
        }
        return variables
    }

    /// `plugins`: an object of step kinds and executables (described by ``PluginResolver`` before loading).
    private func checkPlugins(_ node: JSONNode, into diagnostics: inout DiagnosticList) {
        let path = JSONPath.root.appending("plugins")
        guard let members = node.members else {
            diagnostics.add("'plugins' must be an object of step kinds and executables, found \(node.found)", at: node, path)
            return
        }
        checkDuplicateKeys(members, path: path, into: &diagnostics)
        for member in members {
            if member.value.string?.isEmpty != false {
                diagnostics.add("plugin '\(Echo.text(member.key))' must name an executable, found \(member.value.found)", at: member.value, path.appending(member.key))
            }
        }
    }

    private func readProfiles(_ node: JSONNode, into diagnostics: inout DiagnosticList) -> [ProfileDefinition] {
        let path = JSONPath.root.appending("profiles")
        guard let members = node.members else {
            diagnostics.add("'profiles' must be an object of profile names and profiles, found \(node.found)", at: node, path)
            return []
        }
        checkDuplicateKeys(members, path: path, into: &diagnostics)
        var profiles: [ProfileDefinition] = []
        for member in members {
            let profilePath = path.appending(member.key)
            // A profile name reaches shells (completion candidates for `--profile`, `${profile}` in scripts) and
            // exported workflows: it is a word like a step id, never markup or code.
            if !Self.isValidID(member.key) {
                diagnostics.add("invalid profile name '\(Echo.text(member.key, limit: 60))': profile names match \(Self.idPattern)", at: member.keyLocation, profilePath)
            }
            guard let fields = member.value.members else {
                diagnostics.add("profile '\(member.key)' must be an object, found \(member.value.found)", at: member.value, profilePath)
                continue
            }
            checkKeys(fields, allowed: Self.profileKeys, what: "profile key", path: profilePath, into: &diagnostics)
            var when: Condition?
            if let node = member.value["when"] {
                when = Condition.parse(node, at: profilePath.appending("when"), into: &diagnostics)
                if let when, when.mentionsProfile {
                    diagnostics.add("a profile's 'when' cannot test the profile itself", at: node, profilePath.appending("when"))
                }
            }
            let isDefault = readBool(member.value, "default", .profile, path: profilePath, into: &diagnostics)
            _ = readText(member.value, "description", .profile, path: profilePath, into: &diagnostics)
            let variables = member.value["variables"].map { readVariables($0, path: profilePath.appending("variables"), into: &diagnostics) } ?? []
            profiles.append(ProfileDefinition(name: member.key, when: when, isDefault: isDefault, variables: variables, location: member.keyLocation))
        }
        let defaults = profiles.filter(\.isDefault)
        if defaults.count > 1 {
            for profile in defaults.dropFirst() {
                diagnostics.add(
                    "profiles '\(defaults[0].name)' and '\(profile.name)' are both marked default; only one may be", at: profile.location,
                    path.appending(profile.name).appending("default"))
            }
        }
        return profiles
    }

    static let idPattern = "[a-z0-9][a-z0-9-_]*"

    /// An `xcode.export` given neither `profiles` nor `provisioning_profiles`, and not automatic signing, maps the
    /// archive's bundle identifiers to the profiles the pipeline's `signing.profile` (and `signing.sync`) steps install: its `profiles`
    /// defaults to their `paths` outputs (`${steps.ID.outputs.paths}`), which also makes it follow them.
    static func defaultExportProfiles(_ steps: inout [StepDefinition]) {
        let installers = steps.filter { $0.uses == SigningProfileStep.kind || $0.uses == SigningSyncStep.kind }.map(\.id)
        guard !installers.isEmpty else { return }
        for index in steps.indices where steps[index].uses == XcodeExportStep.kind {
            let with = steps[index].with
            guard var members = with.members, with["profiles"] == nil, with["provisioning_profiles"] == nil,
                with["signing_style"]?.string != XcodeExportStep.SigningStyle.automatic.rawValue
            else { continue }
            members.append(JSONNode.Member(key: "profiles", keyLocation: with.location, value: profilesReference(to: installers, at: with.location)))
            steps[index].with = JSONNode(.object(members), at: with.location)
            steps[index].defaultedProfileInstallers = installers
        }
    }

    /// `profiles` naming the `paths` of `installers`: one reference, or a list of them.
    package static func profilesReference(to installers: [String], at location: SourceLocation) -> JSONNode {
        let references = installers.map { JSONNode(.string("${steps.\($0).outputs.paths}"), at: location) }
        return references.count == 1 ? references[0] : JSONNode(.array(references), at: location)
    }

    static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    private func readStep(_ node: JSONNode, index: Int, registry: StepRegistry, into diagnostics: inout DiagnosticList) -> StepDefinition? {
        let path = JSONPath.root.appending("steps").appending(index)
        guard let members = node.members else {
            diagnostics.add("a step must be an object, found \(node.found)", at: node, path)
            return nil
        }
        checkKeys(members, allowed: Self.stepKeys, what: "step key", path: path, into: &diagnostics)
        checkDuplicateKeys(members, path: path, into: &diagnostics)

        var id = "#\(index)"
        var idIsValid = false
        if let node = node["id"] {
            if let text = node.string, Self.isValidID(text) {
                id = text
                idIsValid = true
            } else {
                diagnostics.add("invalid step id \(node.preview): ids match \(Self.idPattern)", at: node, path.appending("id"))
            }
        } else {
            diagnostics.add("step is missing 'id'", at: node, path)
        }

        var uses = ""
        if let usesNode = node["uses"] {
            if let text = usesNode.string, !text.isEmpty {
                uses = text
                if registry[text] == nil, let problem = unavailablePlugins[text] {
                    diagnostics.add("step '\(Echo.text(id))': \(problem)", at: usesNode, path.appending("uses"))
                } else if registry[text] == nil {
                    diagnostics.add(
                        "step '\(Echo.text(id))': unknown step kind '\(Echo.text(text))'" + Suggestion.hint(for: text, in: registry.names) + "; run 'release steps' for the list",
                        at: usesNode, path.appending("uses"))
                }
            } else {
                diagnostics.add("step '\(id)': 'uses' must name a step kind, found \(usesNode.found)", at: usesNode, path.appending("uses"))
            }
        } else {
            diagnostics.add("step '\(id)' is missing 'uses' (the step kind, such as \"shell\")", at: node, path)
        }

        var needs: [String] = []
        var needsLocations: [SourceLocation] = []
        if let needsNode = node["needs"] {
            switch needsNode.value {
            case .string(let text):
                needs = [text]
                needsLocations = [needsNode.location]
            case .array(let items):
                for (offset, item) in items.enumerated() {
                    if let text = item.string {
                        needs.append(text)
                        needsLocations.append(item.location)
                    } else {
                        diagnostics.add("step '\(id)': 'needs' entries must be step ids, found \(item.found)", at: item, path.appending("needs").appending(offset))
                    }
                }
            default:
                diagnostics.add("step '\(id)': 'needs' must be an array of step ids, found \(needsNode.found)", at: needsNode, path.appending("needs"))
            }
        }

        var with = JSONNode(.object([]), at: node.location)
        if let withNode = node["with"] {
            if withNode.members != nil {
                with = withNode
            } else {
                diagnostics.add("step '\(id)': 'with' must be an object of options, found \(withNode.found)", at: withNode, path.appending("with"))
            }
        }

        let when = node["when"].flatMap { Condition.parse($0, at: path.appending("when"), into: &diagnostics) }
        let gate = readBool(node, "gate", .step, path: path, into: &diagnostics)
        let always = readBool(node, "always", .step, path: path, into: &diagnostics)
        let continueOnError = readBool(node, "continue_on_error", .step, path: path, into: &diagnostics)
        let retries = readNumber(node, "retries", .step, path: path, into: &diagnostics).map { Int($0) } ?? 0
        let retryDelay = readNumber(node, "retry_delay", .step, path: path, into: &diagnostics) ?? 1
        let timeout = readNumber(node, "timeout", .step, path: path, into: &diagnostics)
        _ = readText(node, "description", .step, path: path, into: &diagnostics)
        var skipIf: JSONNode?
        if let skipNode = node["skip_if"] {
            // Facts known before the run belong in `when`; skip_if is for what steps find out.
            let template = skipNode.string.flatMap { try? Template(parsing: $0) }
            if skipNode.string == nil {
                diagnostics.add("'skip_if' must be a string such as \"${steps.bump.outputs.shipped}\", found \(skipNode.found)", at: skipNode, path.appending("skip_if"))
            } else if let text = skipNode.string, let template, !template.references.contains(where: { if case .stepOutput = $0 { true } else { false } }) {
                diagnostics.add(
                    "step '\(id)': 'skip_if' must use a step output such as ${steps.bump.outputs.shipped}, found '\(Echo.text(text))' (facts known before the run go in 'when')",
                    at: skipNode, path.appending("skip_if"))
            } else {
                skipIf = skipNode
            }
        }
        if gate && always {
            diagnostics.add("step '\(id)': a step cannot be both a gate and always", at: node["always"] ?? node, path.appending("always"))
        }
        guard idIsValid else { return nil }
        return StepDefinition(
            index: index, id: id, uses: uses, needs: needs, with: with, when: when, gate: gate, always: always,
            retries: retries, retryDelay: retryDelay, timeout: timeout, continueOnError: continueOnError,
            skipIf: skipIf, location: node.location, path: path, needsLocations: needsLocations)
    }

    // MARK: Runners

    /// `runs_on`: a runner label or a non-empty array of them, written out (a CI engine picks machines before any
    /// variable is known).
    private func readRunner(_ node: JSONNode, path: JSONPath, into diagnostics: inout DiagnosticList) -> Runner? {
        var labels: [String] = []
        switch node.value {
        case .string(let text): labels = [text]
        case .array(let items) where items.allSatisfy({ $0.string != nil }): labels = items.compactMap(\.string)
        default: break
        }
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else {
            diagnostics.add("'runs_on' must be a runner label such as \"macos-15\" or \"ubuntu-latest\", or an array of labels, found \(node.found)", at: node, path)
            return nil
        }
        if let label = labels.first(where: { $0.contains("${") || $0.contains("\n") }) {
            diagnostics.add("'runs_on' must be written out, found '\(Echo.text(label))': runners are chosen before anything is interpolated", at: node, path)
            return nil
        }
        return Runner(labels: labels)
    }

    /// The step's runner, reporting a step whose `when` leaves it ambiguous or contradicts its `runs_on`.
    private func resolveRunner(
        of step: StepDefinition, node: JSONNode, pipelineDefault: Runner?,
        into diagnostics: inout DiagnosticList
    ) -> Runner {
        let path = step.path.appending("runs_on")
        let explicit = node["runs_on"].flatMap { readRunner($0, path: path, into: &diagnostics) }
        switch Runner.resolve(explicit: explicit, when: step.when, pipelineDefault: pipelineDefault) {
        case .runner(let runner):
            return runner
        case .ambiguous(let systems):
            diagnostics.add(
                "step '\(step.id)': its runner is ambiguous: its 'when' holds on \(systems.joined(separator: " and ")); add \"runs_on\" (such as \"\(Runner.implied(for: systems[0]))\") to say where it runs when exported",
                at: node["when"] ?? node, step.path.appending("when"))
        case .conflicting(let runner, let systems):
            diagnostics.add(
                "step '\(step.id)': runs_on '\(runner)' is a \(runner.system ?? "") runner, but its 'when' holds only on \(systems.joined(separator: " or "))",
                at: node["runs_on"] ?? node, path)
        }
        return pipelineDefault ?? .fallback
    }

    // MARK: Helpers

    /// Where the first byte that is not valid UTF-8 is: its offset, value, line and column (characters).
    static func firstInvalidUTF8(_ data: Data) -> (offset: Int, byte: UInt8, location: SourceLocation) {
        let bytes = [UInt8](data)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1, column = 1, offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0x0A { line += 1; column = 1 } else { column += 1 }
                offset += encoded.count
            case .error:
                // Where the broken sequence starts (a stray continuation byte, a lead byte without its
                // continuation, an overlong form or a surrogate).
                return (offset, bytes[offset], SourceLocation(line: line, column: column))
            case .emptyInput:
                return (bytes.count, 0, SourceLocation(line: line, column: column))
            }
        }
    }

    private func checkKeys(_ members: [JSONNode.Member], allowed: [String], what: String, path: JSONPath, into diagnostics: inout DiagnosticList) {
        for member in members where !allowed.contains(member.key) {
            diagnostics.add("unknown \(what) '\(Echo.text(member.key))'" + Suggestion.hint(for: member.key, in: allowed), at: member.keyLocation, path.appending(member.key))
        }
    }

    private func checkDuplicateKeys(_ members: [JSONNode.Member], path: JSONPath, into diagnostics: inout DiagnosticList) {
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            diagnostics.add("duplicate key '\(Echo.text(member.key))'", at: member.keyLocation, path.appending(member.key))
        }
    }

    // The simple values, checked as ``PipelineKey/all`` declares them. A name missing from the table is a bug the
    // tests catch (`PipelineKeyTests`); the value then goes unchecked rather than trapping.

    /// `object[key]`, a boolean key of `scope`: its value, else its declared default (`false`).
    private func readBool(
        _ object: JSONNode, _ key: String, _ scope: PipelineKey.Scope, path: JSONPath,
        into diagnostics: inout DiagnosticList
    ) -> Bool {
        let fallback = PipelineKey.key(key, in: scope)?.defaultValue == "true"
        guard let node = object[key] else { return fallback }
        if case .bool(let flag) = node.value { return flag }
        diagnostics.add("'\(key)' must be true or false, found \(node.found)", at: node, path.appending(key))
        return fallback
    }

    /// `object[key]`, a text key of `scope`, or nil when absent or wrong.
    private func readText(
        _ object: JSONNode, _ key: String, _ scope: PipelineKey.Scope, path: JSONPath,
        into diagnostics: inout DiagnosticList
    ) -> String? {
        guard let node = object[key], case .text(let nonEmpty)? = PipelineKey.key(key, in: scope)?.value else { return nil }
        if let text = node.string, !nonEmpty || !text.isEmpty { return text }
        diagnostics.add("'\(key)' must be a \(nonEmpty ? "non-empty " : "")string, found \(node.found)", at: node, path.appending(key))
        return nil
    }

    /// `object[key]`, a number key of `scope` within its declared range, or nil when absent or wrong.
    private func readNumber(
        _ object: JSONNode, _ key: String, _ scope: PipelineKey.Scope, path: JSONPath,
        into diagnostics: inout DiagnosticList
    ) -> Double? {
        guard let node = object[key], case .number(let whole, let range)? = PipelineKey.key(key, in: scope)?.value else { return nil }
        guard case .number(let value, let text) = node.value, !whole || value.rounded() == value else {
            diagnostics.add("'\(key)' must be a \(whole ? "whole " : "")number, found \(node.found)", at: node, path.appending(key))
            return nil
        }
        guard range.contains(value) else {
            diagnostics.add("'\(key)' must be \(range.text), found \(text)", at: node, path.appending(key))
            return nil
        }
        return value
    }
}
