/// Why a `${...}` reference has no value in this run.
public enum ResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
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

    public var description: String {
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
        }
    }
}
