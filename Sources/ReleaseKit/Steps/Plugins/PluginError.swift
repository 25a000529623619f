import ReleaseSupport

/// Why an external step plugin could not be described or failed its step. Every message names the plugin.
package enum PluginError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `describe` did not give a usable answer: `(plugin, reason)`.
    case badDescription(String, String)
    /// The plugin printed a line that is not a JSON object: `(plugin, line)`.
    case malformedLine(String, String)
    /// The plugin printed a JSON object of a type protocol 1 does not have: `(plugin, type, line)`.
    case unknownType(String, String, String)
    /// A known line type with missing or wrong fields: `(plugin, problem, line)`.
    case badLine(String, String, String)
    /// The plugin exited without a `result` line: `(plugin, how it ended)`.
    case noResult(String, String)
    /// The plugin reported failure: `(plugin, its message)`.
    case failed(String, String)
    /// The plugin reported success but exited with a non-zero status: `(plugin, status)`.
    case exitedAfterSuccess(String, Int32)
    /// A plugin kind has the name of another kind: `(kind, plugin, other)`.
    case clash(String, String, String)

    package var description: String {
        switch self {
        case .badDescription(let plugin, let reason): return "plugin \(plugin): 'describe' \(reason)"
        case .malformedLine(let plugin, let line): return "plugin \(plugin) printed a line that is not a JSON object: '\(Echo.text(line, limit: 200))'"
        case .unknownType(let plugin, let type, let line):
            return "plugin \(plugin) printed a line of unknown type '\(Echo.text(type))': '\(Echo.text(line, limit: 200))'"
        case .badLine(let plugin, let problem, let line): return "plugin \(plugin) printed a \(problem): '\(Echo.text(line, limit: 200))'"
        case .noResult(let plugin, let ending): return "plugin \(plugin) \(ending) without a result line"
        case .failed(let plugin, let message): return "plugin \(plugin): \(message)"
        case .exitedAfterSuccess(let plugin, let status): return "plugin \(plugin) reported success but exited with status \(status)"
        case .clash(let kind, let plugin, let other): return "step kind '\(kind)' of plugin \(plugin) is already \(other)"
        }
    }
}
