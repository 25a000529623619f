import Foundation
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// Turns a validated pipeline and the run's options into a ``Plan``: reads git, chooses the profile, decides
/// which steps run.
package struct Planner: Sendable {
    package init() {}

    /// - Throws: ``UsageError`` for an unknown `--profile` or `--only` step.
    package func plan(_ pipeline: ValidatedPipeline, options: RunOptions, masker: SecretMasker = SecretMasker()) async throws -> Plan {
        let definition = pipeline.definition
        // Every secret the pipeline refers to is masked before the first byte of output, not when the string using
        // it is interpolated: a step's output may carry a secret before any step's options resolve it.
        for case .secret(let name) in Self.allReferences(in: definition) {
            if let value = options.environment[name] { masker.add(value) }
        }
        let git: GitInfo
        if let known = options.git {
            git = known
        } else {
            git = await GitInfo.read(
                in: options.workingDirectory, environment: options.environment,
                needCount: Self.references(.git(.commitCount), in: definition))
        }

        // Profile: --profile, else the first whose `when` holds, else the default.
        let facts = Condition.Facts(profile: nil, branch: git.conditionBranch, environment: options.environment, os: options.os)
        var profile: ProfileDefinition?
        var reason = "no profiles defined"
        if let name = options.profile {
            guard let chosen = definition.profiles.first(where: { $0.name == name }) else {
                let names = definition.profiles.map(\.name)
                throw UsageError(
                    "unknown profile '\(name)'" + Suggestion.hint(for: name, in: names)
                        + (names.isEmpty ? "; \(definition.file) defines no profiles" : "; profiles: \(names.joined(separator: ", "))"))
            }
            profile = chosen
            reason = "--profile"
        } else if let matched = definition.profiles.first(where: { $0.when?.evaluate(facts) == true }) {
            profile = matched
            reason = "when: \(matched.when!)"
        } else if let fallback = definition.profiles.first(where: \.isDefault) {
            profile = fallback
            reason = "default"
        } else if !definition.profiles.isEmpty {
            reason = "no profile's 'when' holds and none is marked default"
        }
        if git.pullRequest, options.profile == nil, !definition.profiles.isEmpty {
            reason += "; a pull request event: no 'branch' condition holds"
        }

        var variables: [String: String] = [:]
        for variable in definition.variables { variables[variable.name] = variable.value }
        for variable in profile?.variables ?? [] { variables[variable.name] = variable.value }
        for (name, value) in options.variables { variables[name] = value }

        // Which steps run.
        let ids = Set(definition.steps.map(\.id))
        for name in options.only where !ids.contains(name) {
            throw UsageError("--only names '\(name)', which is not a step" + Suggestion.hint(for: name, in: ids))
        }
        let registry = pipeline.registry
        // `always` steps, and steps that report on the run, which are scheduled like them.
        let runsAlways = { (step: StepDefinition) in step.always || registry[step.uses]?.reportsOnRun == true }
        var selected = ids
        if !options.only.isEmpty {
            selected = Set(options.only)
            for name in options.only { selected.formUnion(pipeline.graph.ancestors(of: name)) }
            // `always` steps stay when what they need is selected, or when they need nothing (final cleanup).
            for step in definition.steps where runsAlways(step) && step.needs.allSatisfy(selected.contains) {
                selected.insert(step.id)
            }
        }

        // Steps the selection only needs, done in an earlier run (another machine's): taken from the journal. An
        // `always` step is never taken from it: it runs wherever it is selected.
        let named = Set(options.only)
        let carriedSteps =
            options.resume && !options.only.isEmpty
            ? Set(definition.steps.filter { !$0.always && !named.contains($0.id) && options.journaled.contains($0.id) }.map(\.id)) : []

        let stepFacts = Condition.Facts(profile: profile?.name, branch: git.conditionBranch, environment: options.environment, os: options.os)
        let nonAlways = definition.steps.filter { !runsAlways($0) }.map(\.id)
        var decisions: [String: PlannedStep.Decision] = [:]
        /// Steps skipped only because of this machine's system, with the system they run on.
        var skippedForSystem: [String: String] = [:]
        /// Steps skipped only because a step they read is.
        var inherited: Set<String> = []
        var planned: [PlannedStep] = []
        let order = pipeline.graph.topologicalOrder()
        let byID = Dictionary(uniqueKeysWithValues: definition.steps.map { ($0.id, $0) })
        for id in order {
            guard var step = byID[id], let kind = registry[step.uses] else { continue }
            if !step.defaultedProfileInstallers.isEmpty { Self.keepRunningInstallers(in: &step, decisions: decisions) }
            var decision = PlannedStep.Decision.run
            let reads = (pipeline.outputUses[id] ?? []).intersection(Self.producers(readBy: step, variables: variables))
            let carried = carriedSteps.contains(id)
            if !selected.contains(id) {
                decision = .skip("not selected by --only")
            } else if carried {
                decision = .run
            } else if let when = step.when, !when.evaluate(stepFacts) {
                decision = .skip(Self.skipReason(when, facts: stepFacts))
                if let system = Self.otherSystem(making: when, hold: stepFacts) { skippedForSystem[id] = system }
            } else if let producer = Self.rootCause(among: reads, decisions: decisions, systems: skippedForSystem, inherited: inherited) {
                inherited.insert(id)
                if let system = skippedForSystem[producer] {
                    skippedForSystem[id] = system
                    decision = .skip("uses outputs of '\(producer)', which runs on \(system) only; see both with --os \(system)")
                } else {
                    decision = .skip("uses outputs of '\(producer)', which is skipped")
                }
            }
            decisions[id] = decision
            var needs = pipeline.graph.dependencies[id] ?? []
            if runsAlways(step) && step.needs.isEmpty {
                needs = nonAlways.filter { $0 != id }
            }
            planned.append(
                PlannedStep(
                    definition: step, kind: kind, needs: needs, decision: decision, carried: carried && decision == .run,
                    reads: reads, otherSystem: skippedForSystem[id]))
        }
        // An `always` step with no needs waits for every other step, so it must come after them in order too.
        let (finals, rest) = (
            planned.filter { $0.runsAlways && $0.definition.needs.isEmpty },
            planned.filter { !($0.runsAlways && $0.definition.needs.isEmpty) }
        )
        let interpolator = Interpolator(
            variables: variables, environment: options.environment, profile: profile?.name,
            git: git, now: options.now, masker: masker)
        return Plan(
            pipeline: pipeline, profile: profile?.name, profileReason: reason, git: git, options: options,
            steps: rest + finals, interpolator: interpolator)
    }

    /// An export's defaulted `profiles` names only the installing steps that run, so one skipped in this profile
    /// (the ad hoc `signing.profile` when `signing.sync` signs the App Store build) does not skip the export; with none
    /// running, it has no `profiles`, as in a pipeline without installers.
    static func keepRunningInstallers(in step: inout StepDefinition, decisions: [String: PlannedStep.Decision]) {
        let running = step.defaultedProfileInstallers.filter { decisions[$0] == .run }
        guard running != step.defaultedProfileInstallers, var members = step.with.members,
            let index = members.firstIndex(where: { $0.key == "profiles" })
        else { return }
        if running.isEmpty {
            members.remove(at: index)
        } else {
            members[index].value = PipelineLoader.profilesReference(to: running, at: members[index].value.location)
        }
        step.with = JSONNode(.object(members), at: step.with.location)
    }

    /// The step a skipped step is skipped because of, among the producers it reads that do not run: one skipped by its
    /// own `when` on another system first (its message can say which system shows both), then one skipped by its own
    /// `when`, then any; by name within each. Nil when every producer runs.
    static func rootCause(
        among reads: Set<String>, decisions: [String: PlannedStep.Decision], systems: [String: String], inherited: Set<String>
    ) -> String? {
        let skipped = reads.sorted().filter { decisions[$0] != .run }
        return skipped.first { systems[$0] != nil && !inherited.contains($0) } ?? skipped.first { !inherited.contains($0) } ?? skipped.first
    }

    /// The steps whose outputs `step` reads in this run: its own `${steps.ID.outputs.NAME}` references and those of the
    /// variables it uses as this run defines them (the profile's value, `--var`). The graph orders a step after every
    /// producer any profile would have it read; only these make it skipped when the producer is, so a profile can
    /// point a variable at the one of two alternative steps that runs under it.
    static func producers(readBy step: StepDefinition, variables: [String: String]) -> Set<String> {
        var producers: Set<String> = []
        var seen: Set<String> = []
        func scan(_ text: String) {
            for reference in references(inText: text) {
                switch reference {
                case .stepOutput(let producer, _): producers.insert(producer)
                case .variable(let name) where seen.insert(name).inserted: variables[name].map(scan)
                default: break
                }
            }
        }
        step.forEachTemplate { text, _, _ in scan(text) }
        return producers
    }

    /// Every `${secrets.NAME}` the pipeline refers to, by name: what a rehearsal stands in for when unset.
    package static func secretNames(in definition: PipelineDefinition) -> Set<String> {
        var names: Set<String> = []
        for case .secret(let name) in allReferences(in: definition) { names.insert(name) }
        return names
    }

    /// Why a step whose `when` is false is skipped. When the system alone decides it (`{"os": "macos"}` on Linux), the
    /// reason says so and names the `--os` that shows the step as that system would run it.
    static func skipReason(_ when: Condition, facts: Condition.Facts) -> String {
        guard let system = otherSystem(making: when, hold: facts) else { return "when: \(when) is false" }
        return "runs on \(system) only (when: \(when)), this is \(facts.os); see it with --os \(system)"
    }

    /// The first known system on which `when` would hold with every other fact unchanged, when it does not hold here.
    static func otherSystem(making when: Condition, hold facts: Condition.Facts) -> String? {
        guard !when.evaluate(facts) else { return nil }
        return Condition.knownSystems.first { system in
            guard system != facts.os else { return false }
            var other = facts
            other.os = system
            return when.evaluate(other)
        }
    }

    /// Whether any string in the pipeline uses `reference`.
    static func references(_ reference: TemplateReference, in definition: PipelineDefinition) -> Bool {
        allReferences(in: definition).contains(reference)
    }

    /// The references one string makes; none when it has no `${` or does not parse (validation reports that).
    static func references(inText text: String) -> [TemplateReference] {
        guard Template.mayContainReferences(text), let template = try? Template(parsing: text) else { return [] }
        return template.references
    }

    /// Every reference any string of the pipeline makes: variables, profile variables, and every step's `with`.
    static func allReferences(in definition: PipelineDefinition) -> Set<TemplateReference> {
        var found: Set<TemplateReference> = []
        func scan(_ text: String) { found.formUnion(references(inText: text)) }
        for text in definition.variables.map(\.value) + definition.profiles.flatMap({ $0.variables.map(\.value) }) { scan(text) }
        for step in definition.steps {
            step.forEachTemplate { text, _, _ in scan(text) }
        }
        return found
    }
}
