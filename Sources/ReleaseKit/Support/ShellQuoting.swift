/// Renders argv as a command line a POSIX shell would split back into the same words.
package enum ShellQuoting {
    /// `arguments` joined with spaces, each quoted only when it needs to be.
    package static func commandLine(_ arguments: [String]) -> String {
        arguments.map(quote).joined(separator: " ")
    }

    /// One word, single-quoted when it holds anything a shell would interpret.
    package static func quote(_ word: String) -> String {
        if word.isEmpty { return "''" }
        let safe = word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": return true
            case "-", "_", ".", "/", ":", "=", "@", "%", "+", ",": return true
            default: return false
            }
        }
        if safe { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
