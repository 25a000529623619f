import ReleasePipeline
import ReleaseSupport

/// Why a `${...}` reference has no value in this run.
package enum ResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    case environmentNotSet(String)
    case secretNotSet(String)
    case variableNotInProfile(String, profile: String?)
    case noProfile
    case git(field: String, problem: String)
    /// The producing step has not run, and did not promise this output.
    case pendingOutput(step: String, key: String)
    /// The producing step ran (or was skipped) and has no such output.
    case missingOutput(step: String, key: String, available: [String])
    case variableCycle([String])
    case invalidTemplate(String)
    /// A reference in a shell script where no quoting makes its value safe: the reference and why.
    case unsafeShellReference(String, String)
    /// Several secrets and environment variables one step uses, none set (``environmentNotSet(_:)`` and
    /// ``secretNotSet(_:)`` values): said together, so one run names them all.
    case notSet([ResolutionError])

    package var description: String {
        switch self {
        case .environmentNotSet(let name):
            return "environment variable '\(name)' is not set (write ${env.\(name):-fallback} for a fallback)"
        case .secretNotSet(let name):
            return "secret '\(name)' is not set: export \(name) in the environment"
        case .variableNotInProfile(let name, let profile):
            return "variable '\(name)' is not defined for profile '\(profile ?? "none")'; define it in 'variables' or pass --var \(name)=VALUE"
        case .noProfile:
            return "'${profile}' is used but no profile was chosen (pass --profile or mark one profile \"default\": true)"
        case .git(let field, let problem):
            return "git.\(field) is not available: \(problem)"
        case .pendingOutput(let step, let key):
            return "output '\(key)' of step '\(step)' is not known until '\(step)' runs"
        case .missingOutput(let step, let key, let available):
            return "step '\(step)' produced no output '\(key)' (it produced: \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case .variableCycle(let names):
            return "variables refer to each other in a cycle: \(names.joined(separator: " -> "))"
        case .invalidTemplate(let message):
            return message
        case .unsafeShellReference(let source, let reason):
            return "'\(Echo.text(source))' in the shell script is \(reason)"
        case .notSet(let missing):
            var secrets: [String] = []
            var variables: [String] = []
            for problem in missing {
                if case .secretNotSet(let name) = problem { secrets.append(name) }
                if case .environmentNotSet(let name) = problem { variables.append(name) }
            }
            func list(_ names: [String]) -> String { names.map { "'\($0)'" }.joined(separator: ", ") }
            var parts: [String] = []
            if !secrets.isEmpty {
                parts.append(
                    (secrets.count == 1 ? "secret \(list(secrets)) is not set" : "secrets \(list(secrets)) are not set")
                        + ": export \(secrets.count == 1 ? "it" : "each") in the environment (on GitHub Actions a repository secret, on GitLab CI a masked CI/CD variable)")
            }
            if !variables.isEmpty {
                parts.append(
                    (variables.count == 1 ? "environment variable \(list(variables)) is not set" : "environment variables \(list(variables)) are not set")
                        + ": export \(variables.count == 1 ? "it" : "each") (on GitHub Actions a repository variable, on GitLab CI a CI/CD variable), or write ${env.NAME:-fallback} for a fallback"
                )
            }
            return parts.joined(separator: "; ")
        }
    }
}

extension ResolutionError {
    /// `error`, or, when it is an unset secret or environment variable, every one the step's `with` leaves unset
    /// (``notSet(_:)`` when there are several), so a step using three missing values names all three.
    package static func everyUnset(_ error: any Error, in with: JSONNode, interpolator: Interpolator) -> any Error {
        switch error as? ResolutionError {
        case .secretNotSet?, .environmentNotSet?:
            let missing = interpolator.unsetValues(in: with)
            return missing.count > 1 ? ResolutionError.notSet(missing) : error
        default:
            return error
        }
    }
}
