import ReleasePipeline
import ReleaseSteps

/// Splits a pipeline's step graph into CI jobs (``WorkflowJob``): one job per maximal group of steps that share a
/// runner and can run together, with `needs` between jobs from the edges between their steps.
///
/// Steps are taken in the plan's order (every step after what it needs, ties in declaration order); each joins the
/// first job of its runner that it can join without a cycle between jobs (a job it would wait for must not itself
/// wait for that job), else starts a new one. So a macOS build, Linux packaging and a last macOS step that needs the
/// packaging make three jobs, not two that wait for each other.
///
/// An `always` step with no `needs` (a final clean-up) belongs to no single job: `release run --only` keeps it in
/// every run, so it ends every job and cleans every machine. It is listed in ``everyJob``. A step that reports on the
/// run (`notify.slack`) with no `needs` follows every other step: it joins a job that comes after all of them, never
/// the first Linux job, which would announce the release before the Mac built it.
package struct WorkflowPartition: Sendable {
    package let jobs: [WorkflowJob]
    /// `always` steps without `needs` that nothing needs: they run at the end of every job.
    package let everyJob: [String]

    package init(_ pipeline: ValidatedPipeline) {
        let definition = pipeline.definition
        let byID = Dictionary(uniqueKeysWithValues: definition.steps.map { ($0.id, $0) })
        let needed = Set(pipeline.graph.dependencies.values.flatMap { $0 })
        let finals = definition.steps.filter { $0.always && $0.needs.isEmpty && !needed.contains($0.id) }.map(\.id)
        let finalSet = Set(finals)
        // Reporting steps without needs wait for every step that is not itself scheduled like an `always` step.
        let reports = definition.steps.filter { step in
            !step.always && step.needs.isEmpty && pipeline.registry[step.uses]?.reportsOnRun == true && !needed.contains(step.id)
        }.map(\.id)
        let reportSet = Set(reports)
        var dependencies = pipeline.graph.dependencies
        let followed = definition.steps.filter { !$0.always && !reportSet.contains($0.id) }.map(\.id)
        for id in reports { dependencies[id] = followed }

        var jobs: [WorkflowJob] = []
        var jobOf: [String: Int] = [:]
        /// For each job, the jobs it waits for, directly or not.
        var upstream: [Set<Int>] = []
        let order = pipeline.graph.topologicalOrder().filter { !finalSet.contains($0) && !reportSet.contains($0) } + reports
        for id in order {
            // A rollout guard runs in its own scheduled job (``RolloutGuardJob``), not with the release.
            guard let step = byID[id], !RolloutGuardJob.isGuard(step) else { continue }
            let waitsFor = Set((dependencies[id] ?? []).compactMap { jobOf[$0] })
            let chosen = jobs.indices.first { index in
                jobs[index].runner == step.runner
                    && waitsFor.allSatisfy { $0 == index || !upstream[$0].contains(index) }
            }
            let index: Int
            if let chosen {
                index = chosen
            } else {
                index = jobs.count
                jobs.append(WorkflowJob(id: "", runner: step.runner, steps: [], needs: []))
                upstream.append([])
            }
            jobOf[id] = index
            jobs[index].steps.append(id)
            for other in waitsFor where other != index {
                upstream[index].insert(other)
                upstream[index].formUnion(upstream[other])
            }
            // Jobs that wait for this one now wait for what it waits for too.
            for later in jobs.indices where upstream[later].contains(index) { upstream[later].formUnion(upstream[index]) }
        }

        // Jobs in an order where each comes after those it waits for (ties: the order they were made in), so the
        // file reads top to bottom and names number in that order.
        var ordered: [Int] = []
        while ordered.count < jobs.count {
            let next = jobs.indices.first { index in !ordered.contains(index) && upstream[index].allSatisfy(ordered.contains) }!
            ordered.append(next)
        }
        jobs = ordered.map { jobs[$0] }
        upstream = ordered.map { Set(upstream[$0].map { ordered.firstIndex(of: $0)! }) }
        for (id, old) in jobOf { jobOf[id] = ordered.firstIndex(of: old)! }

        // Names: the runner's system, numbered from the second job on the same system.
        var counts: [String: Int] = [:]
        for index in jobs.indices {
            let base = jobs[index].runner.system ?? "job"
            counts[base, default: 0] += 1
            jobs[index].id = counts[base]! == 1 ? base : "\(base)-\(counts[base]!)"
        }
        let position = Dictionary(uniqueKeysWithValues: definition.steps.map { ($0.id, $0.index) })
        for index in jobs.indices {
            var direct: Set<Int> = []
            for id in jobs[index].steps {
                for dependency in dependencies[id] ?? [] {
                    if let other = jobOf[dependency], other != index { direct.insert(other) }
                }
            }
            jobs[index].needs = direct.sorted().map { jobs[$0].id }
            jobs[index].steps.sort { (position[$0] ?? 0) < (position[$1] ?? 0) }
        }
        self.jobs = jobs
        self.everyJob = finals
    }
}
