/// Recognises an argv that hands a script to a shell (`["sh", "-c", "…"]`, also behind `env` or `xcrun`), so a
/// `${…}` value in that script is treated as in a `shell: true` string rather than pasted into code.
///
/// An argv never meets a shell, except when its program *is* one: then the argument after `-c` is script text, and a
/// value interpolated into it would be parsed as code. The recognition is of the spellings people write; a shell
/// reached some other way (a wrapper script, a variable) is not seen, which the README says.
package enum ShellInvocation {
    /// The shells whose `-c` argument is a script.
    package static let shells: Set<String> = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]

    /// What an argv does with its script argument.
    package enum Match: Sendable, Equatable {
        /// The argument at `index` is the script a shell runs, and the shell inherits the command's environment.
        case script(index: Int)
        /// The argument at `index` is a script, but the environment does not reach the shell (`env -i`), so values
        /// cannot travel in variables.
        case scriptWithoutEnvironment(index: Int)
    }

    /// Where `argv`'s shell script is, if its program is a known shell given `-c`.
    package static func match(_ argv: [String]) -> Match? {
        var index = 0
        var environmentKept = true
        // Wrappers that run the rest of the argv: `env [-i] [-u NAME] [NAME=VALUE…]`, `xcrun [--sdk X] [-r]`,
        // `command`, `exec`, `nice`, `nohup`, `time`.
        wrappers: while index < argv.count {
            let program = basename(argv[index])
            switch program {
            case "env":
                index += 1
                while index < argv.count {
                    let word = argv[index]
                    if word == "-i" || word == "--ignore-environment" || word == "-" {
                        environmentKept = false
                        index += 1
                    } else if word == "-u" || word == "--unset" || word == "-C" || word == "--chdir" || word == "-S" {
                        if word == "-S" { environmentKept = false }
                        index += 2
                    } else if word.hasPrefix("-") || (word.contains("=") && !word.hasPrefix("=")) {
                        if word.hasPrefix("-") && word.dropFirst().contains("i") && !word.hasPrefix("--") { environmentKept = false }
                        index += 1
                    } else {
                        continue wrappers
                    }
                }
                return nil
            case "xcrun":
                index += 1
                while index < argv.count, argv[index].hasPrefix("-") {
                    let word = argv[index]
                    let takesValue = ["--sdk", "-sdk", "--toolchain", "-toolchain", "--log", "-log"].contains(word)
                    index += takesValue ? 2 : 1
                }
            case "command", "exec", "nohup", "time", "nice":
                index += 1
                while index < argv.count, argv[index].hasPrefix("-") {
                    index += argv[index] == "-n" && program == "nice" ? 2 : 1
                }
            case "busybox":
                index += 1
            default:
                break wrappers
            }
        }
        guard index < argv.count, shells.contains(basename(argv[index])) else { return nil }
        index += 1
        var sawC = false
        while index < argv.count {
            let word = argv[index]
            if word == "--" {
                index += 1
                break
            }
            guard word.count > 1, word.hasPrefix("-") || word.hasPrefix("+") else { break }
            if word.hasPrefix("--") {
                // `--norc`, `--login`, `--rcfile FILE`, `--init-file FILE`.
                index += (word == "--rcfile" || word == "--init-file") ? 2 : 1
                continue
            }
            let letters = word.dropFirst()
            index += 1
            if letters.contains("c") { sawC = true }
            // `-o NAME` and bash's `-O NAME` take the next word.
            for letter in letters where letter == "o" || letter == "O" { index += 1 }
        }
        guard sawC, index < argv.count else { return nil }
        return environmentKept ? .script(index: index) : .scriptWithoutEnvironment(index: index)
    }

    /// The index of `argv`'s shell script, environment or not.
    package static func scriptIndex(_ argv: [String]) -> Int? {
        switch match(argv) {
        case .script(let index)?, .scriptWithoutEnvironment(let index)?: return index
        case nil: return nil
        }
    }

    /// The message that says how to give a value to a shell script safely.
    package static let safeSpelling =
        "pass the value as a positional argument ([\"sh\", \"-c\", \"echo \\\"$1\\\"\", \"sh\", \"${…}\"]) or as an environment variable (\"env\": {\"VALUE\": \"${…}\"} and \"$VALUE\" in the script)"

    private static func basename(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
