import Foundation
import ReleasePipeline
import ReleaseSteps
import ReleaseSupport

/// `release plan` output: text for people, JSON for programs, DOT for Graphviz.
package enum PlanRenderer {
    /// The plan as readable text.
    package static func text(_ plan: Plan) -> String {
        let definition = plan.pipeline.definition
        var out = "pipeline: \(definition.name) (\(definition.file))\n"
        out += "branch:   \(plan.git.branch ?? "(unknown)")\n"
        out += "profile:  \(plan.profile ?? "(none)") (\(plan.profileReason))\n"
        out += "jobs:     \(plan.options.jobs)\n\n"
        let width = plan.steps.map(\.id.count).max() ?? 4
        for (index, step) in plan.steps.enumerated() {
            var flags: [String] = []
            if step.definition.gate { flags.append("gate") }
            if step.definition.always { flags.append("always") }
            if step.definition.continueOnError { flags.append("continue_on_error") }
            if step.definition.retries > 0 { flags.append("retries \(step.definition.retries)") }
            if let timeout = step.definition.timeout { flags.append("timeout \(DurationFormat.string(seconds: timeout))") }
            let number = String(index + 1).leftPadded(to: String(plan.steps.count).count)
            var line = "\(number). \(step.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(step.kind.kind)"
            if !flags.isEmpty { line += "  [\(flags.joined(separator: ", "))]" }
            out += line + "\n"
            let indent = String(repeating: " ", count: number.count + 2)
            if !step.needs.isEmpty {
                let implied = Set(plan.pipeline.impliedNeeds[step.id] ?? [])
                let reads = plan.pipeline.pathNeeds[step.id] ?? [:]
                let needs =
                    step.definition.always && step.definition.needs.isEmpty
                    ? "after every other step"
                    : step.needs.map { need in
                        if step.reads.contains(need) { return "\(need) (uses its outputs)" }
                        if implied.contains(need) { return "\(need) (uses its outputs under another profile)" }
                        if let path = reads[need] { return "\(need) (reads \(path))" }
                        return need
                    }.joined(separator: ", ")
                out += "\(indent)needs: \(needs)\n"
            }
            if let when = step.definition.when { out += "\(indent)when:  \(when)\n" }
            if case .skip(let reason) = step.decision { out += "\(indent)skip:  \(reason)\n" }
        }
        let running = plan.steps.filter(\.willRun).count
        out += "\n\(running) of \(plan.steps.count) steps will run.\n"
        out += "The commands, files and requests of each: 'release run --dry-run' with the same options (nothing is changed; no Xcode or secret needed).\n"
        return out
    }

    /// The plan as a JSON object.
    package static func json(_ plan: Plan) -> [String: Any] {
        let definition = plan.pipeline.definition
        return [
            "pipeline": definition.name,
            "file": definition.file,
            "branch": plan.git.branch ?? NSNull(),
            "profile": plan.profile ?? NSNull(),
            "profile_reason": plan.profileReason,
            "jobs": plan.options.jobs,
            "steps": plan.steps.map { step -> [String: Any] in
                var object: [String: Any] = [
                    "id": step.id,
                    "uses": step.kind.kind,
                    "needs": step.needs,
                    "gate": step.definition.gate,
                    "always": step.definition.always,
                    "retries": step.definition.retries,
                    "continue_on_error": step.definition.continueOnError,
                    "run": step.willRun,
                    "line": step.definition.location.line,
                ]
                if case .skip(let reason) = step.decision { object["skip_reason"] = reason }
                if let when = step.definition.when { object["when"] = when.description }
                if let timeout = step.definition.timeout { object["timeout"] = timeout }
                return object
            },
        ]
    }

    /// The plan as a Graphviz digraph; skipped steps are dashed, gates are diamonds.
    package static func dot(_ plan: Plan) -> String {
        func quote(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var out = "digraph \(quote(plan.pipeline.definition.name)) {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
        for step in plan.steps {
            var attributes = ["label=\(quote("\(step.id)\\n\(step.kind.kind)"))"]
            if step.definition.gate { attributes.append("shape=diamond") }
            if step.definition.always { attributes.append("peripheries=2") }
            if !step.willRun { attributes.append("style=dashed") }
            out += "  \(quote(step.id)) [\(attributes.joined(separator: ", "))];\n"
        }
        for step in plan.steps {
            for need in step.needs { out += "  \(quote(need)) -> \(quote(step.id));\n" }
        }
        return out + "}\n"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
