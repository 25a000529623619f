import ReleaseSupport

/// Everything the version engine reports. Messages are lower-case, name `file:line` where there is one and
/// quote the offending value.
package enum VersioningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Text that is not a version: `(value, where)`; `where` is `file:line` or a description of the input.
    case invalidVersion(String, context: String?)
    /// Text that is not a build number.
    case invalidBuildNumber(String, context: String?)
    /// A syntax error in a file: `(file, line, message)`.
    case syntax(file: String, line: Int, message: String)
    /// An `#include` chain comes back to a file it is reading: `(file, line)` of the `#include` that closes the
    /// cycle and the whole cycle, first file repeated last.
    case includeCycle(file: String, line: Int, chain: [String])
    /// A file the engine needs cannot be read.
    case unreadable(path: String, reason: String)
    /// The project file is structurally wrong (a dangling object id, a missing root object).
    case malformedProject(file: String, line: Int?, message: String)
    /// No `.xcodeproj` or `VERSION` file where one was looked for.
    case noProject(directory: String)
    /// More than one `.xcodeproj`: the user must choose with `--project`.
    case ambiguousProject(directory: String, candidates: [String])
    /// A version file does not contain exactly one version.
    case versionNotFound(file: String, found: Int)
    /// A value must change but is computed from other settings, so there is no literal to edit.
    case notEditable(location: String, key: String, value: String)
    /// A value expected in a file is no longer there (the file changed since it was read).
    case staleFile(path: String, line: Int?, expected: String)
    /// The project defines no version the bump could change.
    case nothingToBump(project: String)
    /// `--target` names a target the project does not have.
    case unknownTarget(String, available: [String])
    /// A build-number strategy cannot produce a number.
    case buildStrategy(String)
    /// A git command the bump needs failed or would fail (a taken branch, not a repository).
    case git(String)
    /// Writing the bumped files failed; every file was restored.
    case writeFailed(path: String, reason: String, restored: [String])
    /// A version or build number read from a project that is not one (quotes, `;`, `$`, spaces): refused before it
    /// reaches outputs, branch names, tags or scripts. The value, the setting or key, and `file:line`.
    case notAVersion(String, key: String, context: String?)
    /// Expanding a build setting passed a limit (length, depth, references): `(file:line, setting, what happened)`.
    case settingExpansion(location: String, key: String, problem: String)
    /// A bump that a killed process left half done has not been rolled back yet.
    case unfinishedTransaction(journal: String)

    package var description: String {
        switch self {
        case .invalidVersion(let value, let context):
            return prefix(context) + "invalid version '\(value)' (expected X, X.Y or X.Y.Z with an optional suffix such as 'b5')"
        case .invalidBuildNumber(let value, let context):
            return prefix(context) + "invalid build number '\(value)' (expected digits, optionally separated by dots)"
        case .syntax(let file, let line, let message):
            return "\(file):\(line): \(message)"
        case .includeCycle(let file, let line, let chain):
            return "\(file):\(line): include cycle: \(chain.joined(separator: " -> "))"
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .malformedProject(let file, let line, let message):
            return line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
        case .noProject(let directory):
            return "no '.xcodeproj' or 'VERSION' file in '\(directory)' (pass --project PATH or --file PATH)"
        case .ambiguousProject(let directory, let candidates):
            return "several projects in '\(directory)': \(candidates.map { "'\($0)'" }.joined(separator: ", ")) (pass --project PATH)"
        case .versionNotFound(let file, let found):
            return found == 0
                ? "\(file): no version found"
                : "\(file): \(found) versions found, expected exactly one"
        case .notEditable(let location, let key, let value):
            return "\(location): \(key) is '\(value)', computed from other settings; define it as a literal to bump it"
        case .staleFile(let path, let line, let expected):
            let location = line.map { "\(path):\($0)" } ?? path
            return "\(location): expected '\(expected)'; the file changed since it was read"
        case .nothingToBump(let project):
            return "'\(project)' defines no version to bump"
        case .unknownTarget(let name, let available):
            return "no target '\(name)' in the project (targets: \(available.map { "'\($0)'" }.joined(separator: ", ")))"
        case .buildStrategy(let message):
            return message
        case .git(let message):
            return message
        case .notAVersion(let value, let key, let context):
            return prefix(context) + "\(key) '\(Echo.text(value))' is not a version: a version or build number has only letters, digits and '.', '-', '+', '_'"
        case .settingExpansion(let location, let key, let problem):
            return "\(location): build setting '\(key)' \(problem)"
        case .writeFailed(let path, let reason, let restored):
            let list = restored.isEmpty ? "" : "; restored \(restored.map { "'\($0)'" }.joined(separator: ", "))"
            return "cannot write '\(path)': \(reason); nothing was changed\(list)"
        case .unfinishedTransaction(let journal):
            return "an interrupted bump is not rolled back yet ('\(journal)'): run 'release bump' or 'release run' again, which rolls it back first"
        }
    }

    private func prefix(_ context: String?) -> String {
        context.map { "\($0): " } ?? ""
    }
}
