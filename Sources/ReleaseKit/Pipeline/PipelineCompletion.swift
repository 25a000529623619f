import Foundation
import ReleaseSupport

/// What the shell completes for `release run`/`plan`: pipeline names, the profiles and step ids of the pipeline the
/// command line names (ArgumentParser calls these while the user presses Tab, so they never fail, only find less).
package enum PipelineCompletion {
    /// Options of `run`/`plan`/`export` that take a value: their value is not the pipeline argument.
    static let optionsWithValues: Set<String> = [
        "--profile", "--var", "--jobs", "--only", "--report", "--log-format",
        "--rehearsal-storage", "--format", "--output",
    ]

    /// The names `Pipelines/NAME.json` gives under `directory`, matching `prefix`.
    package static func pipelineNames(in directory: String, prefix: String = "") -> [String] {
        PipelineLocator.all(in: directory).map { String(($0 as NSString).lastPathComponent.dropLast(5)) }.filter { $0.hasPrefix(prefix) }
    }

    /// The profiles of the pipeline `words` name (the default one when they name none), matching `prefix`.
    package static func profiles(words: [String], in directory: String, prefix: String = "") -> [String] {
        guard let definition = definition(words: words, in: directory) else { return [] }
        return definition.profiles.map(\.name).filter { $0.hasPrefix(prefix) }
    }

    /// The step ids of the pipeline `words` name, matching `prefix`.
    package static func stepIDs(words: [String], in directory: String, prefix: String = "") -> [String] {
        guard let definition = definition(words: words, in: directory) else { return [] }
        return definition.steps.map(\.id).filter { $0.hasPrefix(prefix) }
    }

    /// `candidates` written for `shell` (`bash`, `zsh` or `fish`, as ArgumentParser names the shell asking), so
    /// each reads back as exactly that word and nothing in it runs or splits.
    ///
    /// Names come from files in the working directory, which may be a clone of someone else's repository: a
    /// pipeline file or an invalid pipeline's profile named `$(touch x)` must complete as text. bash expands every
    /// word of `compgen -W` (command substitution included), so each candidate is quoted as a shell word; zsh's
    /// `_describe` reads `name:description`, so `:` and `\` are escaped; fish takes each line as it is. A candidate
    /// with a control character (a line break would make two) is left out.
    package static func escaped(_ candidates: [String], for shell: String?) -> [String] {
        let printable = candidates.filter { name in !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        switch shell {
        case "bash":
            return printable.map(ShellQuoting.quote)
        case "zsh":
            return printable.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:") }
        default:
            return printable
        }
    }

    /// The pipeline argument among `words` (the command line from the subcommand on): the first word that is
    /// neither an option nor an option's value.
    static func pipelineArgument(in words: [String]) -> String? {
        var skipNext = false
        for word in words.dropFirst() {
            if skipNext { skipNext = false; continue }
            if word.hasPrefix("-") {
                skipNext = optionsWithValues.contains(word)
                continue
            }
            return word
        }
        return nil
    }

    private static func definition(words: [String], in directory: String) -> PipelineDefinition? {
        let subcommand = words.firstIndex { ["run", "plan", "export", "validate"].contains($0) }
        let path = PipelineLocator.resolve(pipelineArgument(in: Array(words[(subcommand ?? 0)...])), in: directory)
        let absolute = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        // An invalid pipeline still has names worth completing: read what can be read.
        do {
            return try PipelineLoader().load(path: absolute).definition
        } catch {
            return nil
        }
    }
}
