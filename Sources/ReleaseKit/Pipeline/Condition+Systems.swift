extension Condition {
    /// The systems on which the condition can hold, judging by its `os` parts alone; nil when it does not depend on
    /// the system (`{"profile": "release"}`).
    package var systems: Set<String>? {
        switch self {
        case .os(let names): return Set(names)
        case .profile, .branch, .env: return nil
        case .all(let conditions):
            return conditions.compactMap(\.systems).reduce(nil) { result, next in result.map { $0.intersection(next) } ?? next }
        case .any(let conditions):
            // One alternative that does not care about the system lets the whole condition hold anywhere.
            let parts = conditions.map(\.systems)
            if parts.contains(where: { $0 == nil }) { return nil }
            return parts.compactMap { $0 }.reduce(into: Set<String>()) { $0.formUnion($1) }
        case .not(let condition):
            // `not` of a condition that also tests other facts may hold on any system.
            guard case .os(let names) = condition else { return condition.systems == nil ? nil : Set(Self.knownSystems) }
            return Set(Self.knownSystems).subtracting(names)
        }
    }
}
