import Foundation

/// Finds options ArgumentParser would accept and silently override: a single-valued option given twice (the last
/// value wins) and both sides of an inverted flag (`--branch --no-branch`). Which options take one value comes from
/// the command's own description (`_dumpHelp`, the JSON `--experimental-dump-help` prints), so a new option is
/// covered without a list kept here.
enum OptionRepetition {
    private struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        var arguments: [ArgumentInfo]?
    }

    private struct ArgumentInfo: Decodable {
        var kind: String
        var isRepeating: Bool
        var names: [NameInfo]?
    }

    private struct NameInfo: Decodable {
        var kind: String
        var name: String

        var spelling: String { kind == "long" ? "--" + name : "-" + name }
    }

    /// The first repetition in `arguments` (the command line after the tool's name) for the command `help`
    /// describes, as a message without the `error: ` prefix; `nil` when there is none.
    static func problem(in arguments: [String], help: String) -> String? {
        guard let info = try? JSONDecoder().decode(ToolInfo.self, from: Data(help.utf8)) else { return nil }
        let described = info.command.arguments ?? []
        var single: [String: String] = [:]  // every spelling of a single-valued option -> its name
        var flags: Set<String> = []
        for argument in described {
            let spellings = (argument.names ?? []).map(\.spelling)
            // Named by its long spelling when it has one: `-o` and `--output` are one option.
            guard let name = spellings.max(by: { $0.count < $1.count }) else { continue }
            if argument.kind == "option", !argument.isRepeating {
                for spelling in spellings { single[spelling] = name }
            } else if argument.kind == "flag" {
                flags.formUnion(spellings)
            }
        }
        var values: [String: String] = [:]
        var given: Set<String> = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            if let option = single[parts[0]] {
                let value = parts.count == 2 ? parts[1] : (index < arguments.count ? arguments[index] : "")
                if parts.count == 1 { index += 1 }
                if let earlier = values[option] {
                    return "'\(option)' is given twice ('\(earlier)', then '\(value)'): pass it once"
                }
                values[option] = value
            } else if flags.contains(argument) {
                given.insert(argument)
                let other = argument.hasPrefix("--no-") ? "--" + argument.dropFirst(5) : "--no-" + argument.dropFirst(2)
                if flags.contains(other), given.contains(other) {
                    return "'\(other)' and '\(argument)' contradict each other: pass one"
                }
            }
        }
        return nil
    }
}
