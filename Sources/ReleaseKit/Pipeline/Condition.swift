import Foundation
import ReleaseSupport

/// A step's or profile's `when`: true when the run's facts match.
///
/// An object with several keys holds when all of them do: `{"profile": "release", "os": "macos"}`.
package indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
    /// The chosen profile matches one of the globs.
    case profile([String])
    /// The git branch matches one of the globs (`release*`).
    case branch([String])
    /// Every named environment variable matches its glob (`"*"`: set to anything non-empty).
    case env([String: String])
    /// The operating system is one of these (`macos`, `linux`).
    case os([String])
    case all([Condition])
    case any([Condition])
    case not(Condition)

    /// The operating systems `os` may name.
    package static let knownSystems = ["macos", "linux", "windows"]

    /// The facts a condition is evaluated against.
    package struct Facts: Sendable {
        package var profile: String?
        package var branch: String?
        package var environment: [String: String]
        package var os: String

        package init(profile: String?, branch: String?, environment: [String: String], os: String = Condition.currentSystem) {
            self.profile = profile
            self.branch = branch
            self.environment = environment
            self.os = os
        }
    }

    /// This machine's system name as `os` spells it (``Platform/systemKind``).
    package static var currentSystem: String { Platform.systemKind }

    package func evaluate(_ facts: Facts) -> Bool {
        switch self {
        case .profile(let patterns):
            guard let profile = facts.profile else { return false }
            return patterns.contains { Glob.matches($0, profile) }
        case .branch(let patterns):
            guard let branch = facts.branch else { return false }
            return patterns.contains { Glob.matches($0, branch) }
        case .env(let expected):
            return expected.allSatisfy { name, pattern in
                guard let value = facts.environment[name] else { return false }
                return pattern == "*" ? !value.isEmpty : Glob.matches(pattern, value)
            }
        case .os(let systems):
            return systems.contains(facts.os)
        case .all(let conditions):
            return conditions.allSatisfy { $0.evaluate(facts) }
        case .any(let conditions):
            return conditions.contains { $0.evaluate(facts) }
        case .not(let condition):
            return !condition.evaluate(facts)
        }
    }

    /// Readable form for plans: `branch matches 'release*'`.
    package var description: String {
        func list(_ values: [String]) -> String {
            values.count == 1 ? "'\(values[0])'" : "one of " + values.map { "'\($0)'" }.joined(separator: ", ")
        }
        switch self {
        case .profile(let patterns): return "profile is \(list(patterns))"
        case .branch(let patterns): return "branch matches \(list(patterns))"
        case .env(let expected):
            return expected.sorted { $0.key < $1.key }.map { "env \($0.key) matches '\($0.value)'" }.joined(separator: " and ")
        case .os(let systems): return "os is \(list(systems))"
        case .all(let conditions): return conditions.map { "(\($0))" }.joined(separator: " and ")
        case .any(let conditions): return conditions.map { "(\($0))" }.joined(separator: " or ")
        case .not(let condition): return "not (\(condition))"
        }
    }

    /// Whether the condition mentions the profile (a profile's own `when` may not).
    var mentionsProfile: Bool {
        switch self {
        case .profile: return true
        case .branch, .env, .os: return false
        case .all(let conditions), .any(let conditions): return conditions.contains { $0.mentionsProfile }
        case .not(let condition): return condition.mentionsProfile
        }
    }

    /// The profile names the condition mentions, with where, for checking them against the profiles.
    static let keys = ["profile", "branch", "env", "os", "all", "any", "not"]

    /// Reads a condition, reporting every problem into `diagnostics`.
    static func parse(_ node: JSONNode, at path: JSONPath, into diagnostics: inout DiagnosticList) -> Condition? {
        guard let members = node.members else {
            diagnostics.add("a condition must be an object with one of \(keys.map { "'\($0)'" }.joined(separator: ", ")), found \(node.found)", at: node, path)
            return nil
        }
        if members.isEmpty {
            diagnostics.add("empty condition; use one of \(keys.map { "'\($0)'" }.joined(separator: ", "))", at: node, path)
            return nil
        }
        var parts: [Condition] = []
        for member in members {
            let memberPath = path.appending(member.key)
            switch member.key {
            case "profile", "branch", "os":
                guard let values = stringList(member.value, memberPath, &diagnostics) else { continue }
                if member.key == "os" {
                    for value in values where !knownSystems.contains(value) {
                        diagnostics.add(
                            "unknown os '\(value)'; known: \(knownSystems.joined(separator: ", "))" + Suggestion.hint(for: value, in: knownSystems), at: member.value, memberPath)
                    }
                }
                parts.append(member.key == "profile" ? .profile(values) : member.key == "branch" ? .branch(values) : .os(values))
            case "env":
                guard let entries = member.value.members, !entries.isEmpty else {
                    diagnostics.add("'env' takes an object of variable names and glob patterns, found \(member.value.found)", at: member.value, memberPath)
                    continue
                }
                var expected: [String: String] = [:]
                for entry in entries {
                    switch entry.value.value {
                    case .string(let text): expected[entry.key] = text
                    case .number(_, let text): expected[entry.key] = text
                    case .bool(let flag): expected[entry.key] = flag ? "true" : "false"
                    default:
                        diagnostics.add(
                            "expected a string pattern for environment variable '\(entry.key)', found \(entry.value.found)", at: entry.value, memberPath.appending(entry.key))
                    }
                }
                parts.append(.env(expected))
            case "all", "any":
                guard case .array(let items) = member.value.value, !items.isEmpty else {
                    diagnostics.add("'\(member.key)' takes a non-empty array of conditions, found \(member.value.found)", at: member.value, memberPath)
                    continue
                }
                let conditions = items.enumerated().compactMap { parse($1, at: memberPath.appending($0), into: &diagnostics) }
                if conditions.count == items.count { parts.append(member.key == "all" ? .all(conditions) : .any(conditions)) }
            case "not":
                if let condition = parse(member.value, at: memberPath, into: &diagnostics) { parts.append(.not(condition)) }
            default:
                diagnostics.add(
                    "unknown condition '\(member.key)'" + Suggestion.hint(for: member.key, in: keys) + "; known: \(keys.joined(separator: ", "))", at: member.keyLocation,
                    memberPath)
            }
        }
        guard !parts.isEmpty else { return nil }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private static func stringList(_ node: JSONNode, _ path: JSONPath, _ diagnostics: inout DiagnosticList) -> [String]? {
        switch node.value {
        case .string(let text) where !text.isEmpty: return [text]
        case .array(let items) where !items.isEmpty:
            let strings = items.compactMap(\.string)
            if strings.count == items.count, !strings.contains("") { return strings }
        default: break
        }
        diagnostics.add("expected a non-empty string or array of strings, found \(node.found)", at: node, path)
        return nil
    }
}
