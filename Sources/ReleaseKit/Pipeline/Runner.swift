/// The machine a step needs when the pipeline is exported to a CI engine (`runs_on`, DESIGN §4): one or more
/// runner labels, such as `macos-15`, `ubuntu-latest` or `["self-hosted", "macOS"]`.
///
/// A step's runner is its own `runs_on`, else the one its `when: {"os": …}` implies, else the pipeline's
/// `runs_on`, else `ubuntu-latest` (the cheapest machine that runs everything but Xcode).
package struct Runner: Sendable, Hashable, CustomStringConvertible {
    /// The labels, as written.
    package var labels: [String]

    package init(labels: [String]) {
        self.labels = labels
    }

    /// The runner when nothing names one.
    package static let fallback = Runner(labels: ["ubuntu-latest"])

    /// The runner `when: {"os": system}` implies: the hosted image of that system that GitHub keeps current.
    package static func implied(for system: String) -> Runner {
        switch system {
        case "macos": return Runner(labels: ["macos-latest"])
        case "windows": return Runner(labels: ["windows-latest"])
        default: return Runner(labels: ["ubuntu-latest"])
        }
    }

    /// The operating system (as `when: {"os": …}` spells it) the labels name, or nil when they do not say
    /// (a self-hosted runner's own labels): `macos-15` and `macOS` are macos, `ubuntu-24.04` and `linux` are linux.
    package var system: String? {
        for label in labels.map({ $0.lowercased() }) {
            if label.hasPrefix("macos") || label == "osx" { return "macos" }
            if label.hasPrefix("ubuntu") || label.hasPrefix("linux") { return "linux" }
            if label.hasPrefix("windows") { return "windows" }
        }
        return nil
    }

    /// `macos-15`, or `[self-hosted, macOS]` for several labels.
    package var description: String {
        labels.count == 1 ? labels[0] : "[" + labels.joined(separator: ", ") + "]"
    }

    /// How a step's runner is decided.
    package enum Resolution: Sendable, Equatable {
        case runner(Runner)
        /// `when` lets the step run on several systems, none of them the pipeline's runner's, and nothing says which
        /// one to export it to.
        case ambiguous(systems: [String])
        /// The step's own `runs_on` names a system its `when` never holds on.
        case conflicting(Runner, systems: [String])
    }

    /// The runner of a step with `runs_on` `explicit` and condition `when`, in a pipeline whose `runs_on` is
    /// `pipelineDefault`.
    package static func resolve(explicit: Runner?, when: Condition?, pipelineDefault: Runner?) -> Resolution {
        let allowed = when.flatMap(\.systems)
        if let explicit {
            if let allowed, let system = explicit.system, !allowed.contains(system) {
                return .conflicting(explicit, systems: allowed.sorted())
            }
            return .runner(explicit)
        }
        let fallback = pipelineDefault ?? .fallback
        guard let allowed, !allowed.isEmpty else { return .runner(fallback) }
        if let system = fallback.system, allowed.contains(system) {
            return .runner(fallback)
        }
        if allowed.count == 1, let only = allowed.first { return .runner(implied(for: only)) }
        return .ambiguous(systems: allowed.sorted())
    }
}
