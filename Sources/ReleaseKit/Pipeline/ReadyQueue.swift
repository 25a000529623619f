internal import HeapModule

/// Kahn's algorithm one step at a time: which steps of a ``StepGraph`` are ready, given which have finished.
///
/// ``StepGraph/topologicalOrder()`` finishes each step as soon as it is taken; the engine finishes a step when it
/// has really run, so independent steps run side by side. Among ready steps the one declared first comes
/// first, so plans and logs are stable. Steps are named by their position in ``StepGraph/ids``.
package struct ReadyQueue: Sendable {
    /// For each step, how many of its needs have not finished yet.
    private var waiting: [Int]
    /// For each step, the steps that need it.
    private var dependents: [[Int]]
    /// The ready steps: swift-collections' min-max heap, smallest position first.
    private var ready = Heap<Int>()

    /// Starts with every step that needs nothing ready.
    package init(_ graph: StepGraph) {
        let position = Dictionary(uniqueKeysWithValues: graph.ids.enumerated().map { ($1, $0) })
        waiting = [Int](repeating: 0, count: graph.ids.count)
        dependents = [[Int]](repeating: [], count: graph.ids.count)
        for (index, id) in graph.ids.enumerated() {
            for need in Set(graph.dependencies[id] ?? []) {
                guard let producer = position[need] else { continue }
                waiting[index] += 1
                dependents[producer].append(index)
            }
        }
        for index in waiting.indices where waiting[index] == 0 { ready.insert(index) }
    }

    /// The ready step declared first, without taking it.
    package var firstReady: Int? { ready.min }

    /// Takes the ready step declared first.
    package mutating func popReady() -> Int? { ready.popMin() }

    /// Marks a taken step finished: the steps waiting only for it become ready.
    package mutating func finish(_ index: Int) {
        for dependent in dependents[index] {
            waiting[dependent] -= 1
            if waiting[dependent] == 0 { ready.insert(dependent) }
        }
    }
}
