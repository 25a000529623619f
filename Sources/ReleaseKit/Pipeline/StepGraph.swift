/// The dependency graph of a pipeline's steps: edges from each step to the steps it needs.
package struct StepGraph: Sendable {
    /// Step ids in declaration order.
    package let ids: [String]
    /// For each step, the steps it needs, in declaration order.
    package let dependencies: [String: [String]]

    package init(ids: [String], dependencies: [String: [String]]) {
        self.ids = ids
        self.dependencies = dependencies
    }

    /// A cycle as a path that returns to its start (`a -> b -> a`), or nil. The first cycle found when
    /// walking steps in declaration order. Iterative (an explicit stack), so a 50,000-step chain cannot
    /// overflow the call stack.
    package func findCycle() -> [String]? {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        for root in ids where marks[root] == nil {
            // Each frame: a step on the current path and the index of its next dependency to visit.
            var frames: [(id: String, next: Int)] = [(root, 0)]
            var onPath: [String: Int] = [root: 0]
            marks[root] = .visiting
            while let top = frames.last {
                let needs = dependencies[top.id] ?? []
                if top.next == needs.count {
                    marks[top.id] = .done
                    onPath[top.id] = nil
                    frames.removeLast()
                    continue
                }
                frames[frames.count - 1].next += 1
                let dependency = needs[top.next]
                switch marks[dependency] {
                case .done?:
                    continue
                case .visiting?:
                    let start = onPath[dependency] ?? 0
                    return (frames[start...].map(\.id) + [dependency]).reversed()
                case nil:
                    marks[dependency] = .visiting
                    onPath[dependency] = frames.count
                    frames.append((dependency, 0))
                }
            }
        }
        return nil
    }

    /// Steps in an order where every step comes after what it needs; among steps that are ready at the same
    /// time, declaration order wins, so plans and logs are stable. Assumes no cycle.
    package func topologicalOrder() -> [String] {
        var queue = ReadyQueue(self)
        var order: [String] = []
        order.reserveCapacity(ids.count)
        while let next = queue.popReady() {
            order.append(ids[next])
            queue.finish(next)
        }
        return order
    }

    /// Every step `id` depends on, directly or not.
    package func ancestors(of id: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = dependencies[id] ?? []
        while let next = queue.popLast() {
            if seen.insert(next).inserted { queue.append(contentsOf: dependencies[next] ?? []) }
        }
        return seen
    }

    /// A path of `needs` from `from` down to `to` (`from -> … -> to`), if `from` depends on `to`.
    package func dependencyPath(from: String, to: String) -> [String]? {
        var previous: [String: String] = [:]
        var queue = [from]
        var seen: Set<String> = [from]
        while !queue.isEmpty {
            let current = queue.removeFirst()
            if current == to {
                var path = [to]
                while let back = previous[path[0]] { path.insert(back, at: 0) }
                return path
            }
            for next in dependencies[current] ?? [] where seen.insert(next).inserted {
                previous[next] = current
                queue.append(next)
            }
        }
        return nil
    }
}
