/// The dependency graph of a pipeline's steps: edges from each step to the steps it needs.
public struct StepGraph: Sendable {
    /// Step ids in declaration order.
    public let ids: [String]
    /// For each step, the steps it needs, in declaration order.
    public let dependencies: [String: [String]]

    public init(ids: [String], dependencies: [String: [String]]) {
        self.ids = ids
        self.dependencies = dependencies
    }

    /// A cycle as a path that returns to its start (`a -> b -> a`), or nil. The first cycle found when
    /// walking steps in declaration order.
    public func findCycle() -> [String]? {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var stack: [String] = []
        func visit(_ id: String) -> [String]? {
            if marks[id] == .done { return nil }
            if marks[id] == .visiting {
                let start = stack.firstIndex(of: id) ?? 0
                return Array(stack[start...]) + [id]
            }
            marks[id] = .visiting
            stack.append(id)
            for dependency in dependencies[id] ?? [] {
                if let cycle = visit(dependency) { return cycle }
            }
            stack.removeLast()
            marks[id] = .done
            return nil
        }
        for id in ids {
            if let cycle = visit(id) { return cycle.reversed() }
        }
        return nil
    }

    /// Steps in an order where every step comes after what it needs; among steps that are ready at the same
    /// time, declaration order wins, so plans and logs are stable. Assumes no cycle.
    public func topologicalOrder() -> [String] {
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var remaining = dependencies.mapValues { Set($0).count }
        for id in ids where remaining[id] == nil { remaining[id] = 0 }
        var dependents: [String: [String]] = [:]
        for id in ids {
            for dependency in Set(dependencies[id] ?? []) { dependents[dependency, default: []].append(id) }
        }
        var ready = MinHeap<Int>()
        for id in ids where remaining[id] == 0 { ready.insert(position[id]!) }
        var order: [String] = []
        order.reserveCapacity(ids.count)
        while let next = ready.popMin() {
            let id = ids[next]
            order.append(id)
            for dependent in dependents[id] ?? [] {
                remaining[dependent]! -= 1
                if remaining[dependent] == 0 { ready.insert(position[dependent]!) }
            }
        }
        return order
    }

    /// Every step `id` depends on, directly or not.
    public func ancestors(of id: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = dependencies[id] ?? []
        while let next = queue.popLast() {
            if seen.insert(next).inserted { queue.append(contentsOf: dependencies[next] ?? []) }
        }
        return seen
    }

    /// A path of `needs` from `from` down to `to` (`from -> … -> to`), if `from` depends on `to`.
    public func dependencyPath(from: String, to: String) -> [String]? {
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

/// A binary min-heap of comparable values.
struct MinHeap<Element: Comparable> {
    private var items: [Element] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var min: Element? { items.first }

    mutating func insert(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if items[child] >= items[parent] { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let minimum = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return minimum
    }
}
