import ReleasePipeline

/// One CI job of an exported pipeline: steps that share a runner and can run together, run there by one
/// `release run --only …`.
package struct WorkflowJob: Sendable, Equatable {
    /// The job's key in the workflow: the runner's system, numbered from the second job on it (`macos`, `linux-2`).
    package var id: String
    package var runner: Runner
    /// The steps the job runs, in declaration order (what `--only` names).
    package var steps: [String]
    /// The jobs that must finish first, in job order.
    package var needs: [String]

    /// The jobs `id` needs, directly or not, in job order.
    package static func ancestors(of id: String, in jobs: [WorkflowJob]) -> [String] {
        let needs = Dictionary(uniqueKeysWithValues: jobs.map { ($0.id, $0.needs) })
        var seen: Set<String> = []
        var queue = needs[id] ?? []
        while let next = queue.popLast() {
            if seen.insert(next).inserted { queue.append(contentsOf: needs[next] ?? []) }
        }
        return jobs.map(\.id).filter(seen.contains)
    }
}
