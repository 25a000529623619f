import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// The files an exported job hands on and publishes, from the paths its steps' options declare they create
/// (``OptionFormat/output``) and the files they publish (``ExportTraits/publishedFiles``), with the variables known
/// before a run substituted (the pipeline's, and `--profile`'s) and every other reference as `*`.
struct ExportedFiles {
    let pipeline: ValidatedPipeline
    let profile: String?
    /// The pipeline's variables, with `--profile`'s over them; without `--profile`, variables a profile changes are
    /// not known.
    let knownVariables: [String: String]

    init(pipeline: ValidatedPipeline, profile: String?) {
        self.pipeline = pipeline
        self.profile = profile
        let definition = pipeline.definition
        var values: [String: String] = [:]
        for variable in definition.variables { values[variable.name] = variable.value }
        if let profile, let chosen = definition.profiles.first(where: { $0.name == profile }) {
            for variable in chosen.variables { values[variable.name] = variable.value }
        } else {
            for name in definition.profiles.flatMap(\.variables).map(\.name) { values[name] = nil }
        }
        knownVariables = values
    }

    /// What a job's state holds: the journal folder, the changes folder, then the folder of every path its steps
    /// declare they create (the path itself when it lies at the top), with references only known at run time as `*`.
    func state(of job: WorkflowJob) -> [String] {
        var paths = [JournalLocation.gitFolder + "/", WorkflowState.folder + "/"]
        for id in job.steps {
            guard let step = pipeline.definition.step(id), let kind = pipeline.registry[step.uses] else { continue }
            for option in kind.optionsType.declaredOptions where option.declaration.createsPath {
                guard let node = step.with[option.key] else { continue }
                forEachString(in: node, path: .root) { text, _, _ in
                    guard let path = travellingPath(text) else { return }
                    if !paths.contains(path) { paths.append(path) }
                }
            }
        }
        return paths
    }

    /// Paths a step of one job creates outside the workspace while a step of a later job needs that step: nothing can
    /// carry them (an artifact holds workspace files only), so the export refuses.
    func untravellable(in partition: WorkflowPartition) -> [String] {
        let jobs = partition.jobs
        var jobOf: [String: String] = [:]
        for job in jobs { for id in job.steps { jobOf[id] = job.id } }
        var problems: [String] = []
        for job in jobs {
            for id in job.steps {
                guard let step = pipeline.definition.step(id), let kind = pipeline.registry[step.uses] else { continue }
                let readers = pipeline.definition.steps.filter { other in
                    jobOf[other.id].map { $0 != job.id } == true && pipeline.graph.ancestors(of: other.id).contains(id)
                }
                guard let reader = readers.first else { continue }
                for option in kind.optionsType.declaredOptions where option.declaration.createsPath {
                    guard let node = step.with[option.key] else { continue }
                    forEachString(in: node, path: .root) { text, _, _ in
                        if travellingPath(text) == nil {
                            problems.append(
                                "step '\(id)' (job \(job.id)) writes '\(Echo.text(text))' outside the repository, and step '\(reader.id)' (job \(jobOf[reader.id] ?? "")) comes after it on another runner: nothing can carry that file; write it inside the repository"
                            )
                        }
                    }
                }
            }
        }
        return problems
    }

    /// The files the steps among `steps` publish (``ExportTraits/publishedFiles``), as upload globs (references known
    /// only at run time as `*`): a file that is another step's output stands for the path that step's options create.
    func published(bySteps steps: [String]) -> [String] {
        var files: [String] = []
        for id in steps {
            guard let step = pipeline.definition.step(id), let option = pipeline.registry[step.uses]?.exportTraits.publishedFiles,
                let assets = step.with[option]
            else { continue }
            forEachString(in: assets, path: .root) { text, _, path in
                if case .key(let key)? = path.components.last, key != "path" { return }
                for file in publishedPaths(of: text) where !files.contains(file) { files.append(file) }
            }
        }
        return files
    }

    private func publishedPaths(of template: String) -> [String] {
        if let parsed = try? Template(parsing: template), let whole = parsed.wholeReference, case .stepOutput(let producer, let key) = whole,
            let step = pipeline.definition.step(producer), let kind = pipeline.registry[step.uses]
        {
            let creating = kind.optionsType.declaredOptions.filter { $0.declaration.createsPath && step.with[$0.key] != nil }
            let chosen = creating.filter { $0.key == key } + (key == "path" ? creating.filter { $0.key == "output" } : [])
            let options = chosen.isEmpty && creating.count == 1 ? creating : Array(chosen.prefix(1))
            var paths: [String] = []
            for option in options {
                forEachString(in: step.with[option.key]!, path: .root) { text, _, _ in
                    let path = expand(text)
                    // A step that writes files it does not declare (a `shell` step) may create a folder: its files
                    // are what it made.
                    paths.append(kind.exportTraits.writesUndeclaredFiles && !(path.split(separator: "/").last ?? "").contains(".") ? path + "/*" : path)
                }
            }
            return paths
        }
        let path = expand(template)
        return path == "*" ? [] : [path]
    }

    /// The upload path for a created path template: its folder (so files written beside it, such as a log or a
    /// manifest, travel too), or the path when it lies at the top; nil for paths outside the workspace.
    private func travellingPath(_ template: String) -> String? {
        var path = expand(template)
        while path.hasPrefix("./") { path.removeFirst(2) }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.split(separator: "/").contains("..") else { return nil }
        let components = path.split(separator: "/").map(String.init)
        let folder = components.dropLast()
        if !folder.isEmpty, !folder.contains(where: { $0.contains("*") }) { return folder.joined(separator: "/") + "/" }
        return components.joined(separator: "/")
    }

    /// `template` with the variables known before a run substituted and every other reference as `*`.
    private func expand(_ template: String, depth: Int = 0) -> String {
        guard Template.mayContainReferences(template), depth < 8, let parsed = try? Template(parsing: template) else { return template }
        var out = ""
        for segment in parsed.segments {
            switch segment {
            case .literal(let text): out += text
            case .reference(.variable(let name), _):
                out += knownVariables[name].map { expand($0, depth: depth + 1) } ?? "*"
            case .reference(.profile, _): out += profile ?? "*"
            case .reference: out += "*"
            }
        }
        return out.replacingOccurrences(of: "**", with: "*")
    }
}
