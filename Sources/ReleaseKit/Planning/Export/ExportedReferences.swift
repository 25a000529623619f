import ReleasePipeline

/// What steps of a pipeline read from the environment, directly or through variables (any profile's), for an
/// exported job: secrets, which the engine passes from its secret store, and `${env.NAME}` without a fallback, which
/// it passes from its configuration variables (GitHub's `${{ vars.NAME }}`); with a fallback the pipeline needs
/// nothing, and the runner's own variables (`GITHUB_*`, `RUNNER_*`, `CI`) are there anyway.
struct ExportedReferences {
    let definition: PipelineDefinition
    /// Every value each variable takes (the pipeline's and each profile's).
    let variables: [String: [String]]

    init(_ pipeline: ValidatedPipeline) {
        definition = pipeline.definition
        var variables: [String: [String]] = [:]
        for variable in definition.variables + definition.profiles.flatMap(\.variables) {
            variables[variable.name, default: []].append(variable.value)
        }
        self.variables = variables
    }

    /// Environment variables a runner sets itself: never mapped to configuration variables.
    static func isRunnerVariable(_ name: String) -> Bool {
        name == "CI" || name.hasPrefix("GITHUB_") || name.hasPrefix("RUNNER_") || name.hasPrefix("ACTIONS_")
    }

    /// What the steps `steps` read.
    func of(_ steps: [String]) -> (secrets: Set<String>, variables: Set<String>) {
        var secrets: Set<String> = []
        var environment: Set<String> = []
        var visited: Set<String> = []
        func scan(_ text: String) {
            guard Template.mayContainReferences(text) else { return }
            for case .success(let reference) in Template.scan(text) {
                switch reference {
                case .secret(let name): secrets.insert(name)
                case .environment(let name, nil) where !Self.isRunnerVariable(name): environment.insert(name)
                case .variable(let name):
                    if visited.insert(name).inserted { (variables[name] ?? []).forEach(scan) }
                default: break
                }
            }
        }
        for id in steps {
            guard let step = definition.step(id) else { continue }
            forEachString(in: step.with, path: .root) { text, _, _ in scan(text) }
        }
        return (secrets, environment)
    }
}
