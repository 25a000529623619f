/// Follows a POSIX shell script's quoting as it is read, so a value can be put at any point as text the shell
/// never parses: where the script is unquoted, inside the author's double or single quotes, in a here-document.
///
/// The value itself travels in an environment variable; what goes into the script is a reference to it, written
/// for the quoting at that point (``Placement/reference(to:)``). The shell expands a parameter once and never
/// reads its value as code, so even a wrong guess about the quoting (a construct this scanner does not follow,
/// such as a `case` pattern's `)` inside `$(…)`) can change how the value is split into words, never run it. The
/// places where a parameter's value *is* read again as code, or cannot be referenced at all, are refused:
/// backquotes, arithmetic (`$((…))`, `((…))`: bash evaluates a variable's value as an expression there, and an
/// expression can run commands), `$'…'`, a here-document with a quoted delimiter (nothing expands in it), a
/// here-document's delimiter, and the character after a backslash.
///
/// Feed the script's literal text with ``scan(_:)`` and ask ``place()`` where each value goes, in order.
package struct ShellScriptScanner: Sendable {
    /// Where a value goes, and how it is referenced there.
    package enum Placement: Sendable, Equatable {
        /// Outside quotes: `"${NAME}"`, one word however many spaces or `*` the value holds.
        case unquoted
        /// Inside `"…"` or an expanding here-document: `${NAME}`.
        case doubleQuoted
        /// Inside `'…'`: the quote is closed, the value put in double quotes, and the quote opened again.
        case singleQuoted
        /// Nowhere safe; the message says where it is and what to write instead.
        case refused(String)

        /// The text that puts environment variable `name`'s value here; nil when refused.
        package func reference(to name: String) -> String? {
            switch self {
            case .unquoted: return "\"${\(name)}\""
            case .doubleQuoted: return "${\(name)}"
            case .singleQuoted: return "'\"${\(name)}\"'"
            case .refused: return nil
            }
        }
    }

    private enum Frame: Sendable, Equatable {
        /// The script itself (the bottom frame) or a `$(…)` inside it, with its open `(` count.
        case command(parens: Int)
        case doubleQuoted
        case singleQuoted
        /// `$'…'` (bash's ANSI-C quotes).
        case ansiC
        case backquoted
        /// `$((…))` or `((…))`, with its open `(` count.
        case arithmetic(parens: Int)
        /// `${…}`, with its open `{` count.
        case parameter(braces: Int)
        case comment
        case hereDocument(HereDocument)
    }

    private struct HereDocument: Sendable, Equatable {
        var delimiter: String
        /// Written with a quote or backslash: its body does not expand.
        var quoted: Bool
        /// `<<-`: leading tabs are removed from each line.
        var stripsTabs: Bool
    }

    /// A delimiter being read after `<<`.
    private struct DelimiterWord: Sendable {
        var text = ""
        var quoted = false
        var stripsTabs = false
        var started = false
        var quote: Unicode.Scalar?
        var escaped = false
    }

    private var stack: [Frame] = [.command(parens: 0)]
    /// The last character was an unquoted backslash: the next one is taken literally.
    private var escaped = false
    /// At the start of a word (where `#` starts a comment and `((` arithmetic).
    private var atWordStart = true
    private var pending: [HereDocument] = []
    private var delimiter: DelimiterWord?
    /// The here-document line read so far.
    private var line = ""
    /// For each `.command` frame on the stack, the words of its current simple command read so far (unquoted text
    /// only; a quoted part counts as a word with no text), so a value can be refused where a command reads its
    /// arguments again as code (`sh -c '…'`, `trap '…'`, `eval "…"`).
    private var words: [[String]] = [[]]
    /// The word being read in the innermost `.command` frame; nil between words.
    private var word: String?

    package init() {}

    /// Reads `literal`, the script's text up to the next value.
    package mutating func scan(_ literal: String) {
        let scalars = Array(literal.unicodeScalars)
        var index = 0
        func next(_ offset: Int = 1) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        while index < scalars.count {
            let c = scalars[index]
            index += 1
            if delimiter != nil {
                if readDelimiter(c) { continue }
            }
            guard let top = stack.last else { return }
            switch top {
            case .singleQuoted:
                if c == "'" { stack.removeLast() }
            case .ansiC:
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "'" { stack.removeLast() }
            case .comment:
                if c == "\n" { stack.removeLast(); newline() }
            case .backquoted:
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "`" { stack.removeLast() }
            case .hereDocument(let document):
                if c == "\n" {
                    var text = line
                    if document.stripsTabs { while text.hasPrefix("\t") { text.removeFirst() } }
                    line = ""
                    if text == document.delimiter {
                        stack.removeLast()
                        if !pending.isEmpty { stack.append(.hereDocument(pending.removeFirst())) }
                    }
                } else {
                    line.unicodeScalars.append(c)
                }
            case .arithmetic(let parens):
                if c == "(" {
                    stack[stack.count - 1] = .arithmetic(parens: parens + 1)
                } else if c == ")" {
                    if parens == 0, next(0) == ")" {
                        index += 1
                        stack.removeLast()
                    } else {
                        stack[stack.count - 1] = .arithmetic(parens: max(0, parens - 1))
                    }
                }
            case .doubleQuoted:
                if escaped { escaped = false; continue }
                switch c {
                case "\\": escaped = true
                case "\"": stack.removeLast()
                case "`": stack.append(.backquoted)
                case "$": index += dollar(next(0), next(1), quoted: true)
                default: break
                }
            case .parameter(let braces):
                if escaped { escaped = false; continue }
                switch c {
                case "\\": escaped = true
                case "\"": stack.append(.doubleQuoted)
                case "'": if !insideDoubleQuotes { stack.append(.singleQuoted) }
                case "`": stack.append(.backquoted)
                case "$": index += dollar(next(0), next(1), quoted: insideDoubleQuotes)
                case "{": stack[stack.count - 1] = .parameter(braces: braces + 1)
                case "}":
                    if braces == 0 { stack.removeLast() } else { stack[stack.count - 1] = .parameter(braces: braces - 1) }
                default: break
                }
            case .command(let parens):
                if escaped {
                    escaped = false
                    atWordStart = false
                    word = (word ?? "") + String(c)
                    continue
                }
                let wordStart = atWordStart
                atWordStart = false
                switch c {
                case "\\": escaped = true
                case "'": stack.append(.singleQuoted); word = word ?? ""
                case "\"": stack.append(.doubleQuoted); word = word ?? ""
                case "`": stack.append(.backquoted); word = word ?? ""
                case "$":
                    word = word ?? ""
                    index += dollar(next(0), next(1), quoted: false)
                case "#" where wordStart: stack.append(.comment)
                case "(":
                    endCommand()
                    if wordStart, next(0) == "(" {
                        index += 1
                        stack.append(.arithmetic(parens: 0))
                    } else {
                        stack[stack.count - 1] = .command(parens: parens + 1)
                        atWordStart = true
                    }
                case ")":
                    endCommand()
                    if parens == 0, stack.count > 1 {
                        stack.removeLast()
                        popWords()
                    } else {
                        stack[stack.count - 1] = .command(parens: max(0, parens - 1))
                    }
                    atWordStart = true
                case "<" where next(0) == "<" && next(1) != "<":
                    endWord()
                    index += 1
                    var word = DelimiterWord()
                    if next(0) == "-" { index += 1; word.stripsTabs = true }
                    delimiter = word
                case "\n":
                    endCommand()
                    newline()
                case ";", "&", "|":
                    endCommand()
                    atWordStart = true
                case " ", "\t", "<", ">":
                    endWord()
                    atWordStart = true
                default:
                    word = (word ?? "") + String(c)
                }
            }
        }
    }

    /// Where the next value goes (it comes right after the text scanned so far).
    package mutating func place() -> Placement {
        if delimiter != nil {
            return .refused("in a here-document's delimiter (after <<), which must be a fixed word")
        }
        guard let top = stack.last else { return .refused("in a part of the script that cannot be followed") }
        if escaped, top != .singleQuoted, top != .comment {
            return .refused("right after a backslash, which would escape the quoting put around the value")
        }
        if top != .comment, let command = rereadingCommand {
            return .refused(
                "an argument of '\(command)', which reads it again as code; set it in the step's env (\"env\": {\"VALUE\": \"${…}\"}) and write \"$VALUE\" in the inner script, which inherits the environment"
            )
        }
        switch top {
        case .command:
            atWordStart = false
            word = word ?? ""
            return .unquoted
        case .comment:
            return .unquoted
        case .doubleQuoted:
            return .doubleQuoted
        case .singleQuoted:
            return .singleQuoted
        case .parameter:
            return insideDoubleQuotes ? .doubleQuoted : .unquoted
        case .hereDocument(let document):
            if document.quoted {
                return .refused("in a here-document whose delimiter is quoted (<<'\(document.delimiter)'), where nothing expands; write the delimiter unquoted")
            }
            // Not the delimiter line, whatever the value.
            line += "\u{0}"
            return .doubleQuoted
        case .backquoted:
            return .refused("inside backquotes (`…`), where it cannot be quoted; use $(…) instead")
        case .arithmetic:
            return .refused("inside an arithmetic expression ($((…)) or ((…))), where the shell evaluates a value as an expression, and an expression can run commands")
        case .ansiC:
            return .refused("inside $'…' quotes, where it cannot be quoted; use \"…\" instead")
        }
    }

    // MARK: Internals

    /// Whether the innermost quoting around a `${…}` is a pair of double quotes (or an expanding here-document).
    private var insideDoubleQuotes: Bool {
        for frame in stack.reversed() {
            switch frame {
            case .parameter: continue
            case .doubleQuoted, .hereDocument: return true
            default: return false
            }
        }
        return false
    }

    /// After a `$`: opens `$((`, `$(`, `${` or `$'`. Returns how many of the characters after `$` it used.
    private mutating func dollar(_ first: Unicode.Scalar?, _ second: Unicode.Scalar?, quoted: Bool) -> Int {
        switch first {
        case "(":
            if second == "(" {
                stack.append(.arithmetic(parens: 0))
                return 2
            }
            stack.append(.command(parens: 0))
            pushWords()
            atWordStart = true
            return 1
        case "{":
            stack.append(.parameter(braces: 0))
            return 1
        case "'" where !quoted:
            stack.append(.ansiC)
            return 1
        case "$":
            // `$$`, the shell's process id: the second `$` opens nothing.
            return 1
        default:
            return 0
        }
    }

    /// The words of the innermost command frame, for the frame just pushed.
    private mutating func pushWords() {
        endWord()
        words.append([])
    }

    /// The innermost command frame was closed: back to the words of the one around it.
    private mutating func popWords() {
        word = nil
        if words.count > 1 { words.removeLast() }
        // The `$(…)` is part of a word of the outer command.
        word = ""
    }

    private mutating func endWord() {
        if let word, !words.isEmpty { words[words.count - 1].append(word) }
        word = nil
    }

    /// `;`, `&`, `|`, a line break or a parenthesis: the next word starts a new simple command.
    private mutating func endCommand() {
        word = nil
        if !words.isEmpty { words[words.count - 1] = [] }
    }

    /// The command that reads a value placed now again as code, as written (`sh -c`, `trap`, `eval`), or nil: the
    /// innermost command's words so far (and the one being read). A shell given `-c` anywhere among them (`find …
    /// -exec sh -c`, `xargs bash -c`), `eval`, `trap`, `su -c`/`runuser -c`, or `ssh` (the remote shell parses its
    /// command).
    private var rereadingCommand: String? {
        guard let current = words.last else { return nil }
        let all = current + (word.map { [$0] } ?? [])
        let names = all.map { word -> String in
            guard let slash = word.lastIndex(of: "/") else { return word }
            return String(word[word.index(after: slash)...])
        }
        // Values are placed inside the word being read: the words before it are the command so far.
        let before = Array(names.prefix(current.count))
        for (offset, name) in before.enumerated() where ShellInvocation.shells.contains(name) || name == "su" || name == "runuser" {
            // The options right after it: `-c`, `-ec`, `-o pipefail -c`, `--login -c`.
            var index = offset + 1
            while index < before.count, before[index].hasPrefix("-") || before[index].hasPrefix("+") {
                let option = before[index]
                if !option.hasPrefix("--"), option.dropFirst().contains("c") { return "\(name) -c" }
                index += (option == "-o" || option == "-O") ? 2 : 1
            }
        }
        guard let first = before.first(where: { !$0.contains("=") }) else { return nil }
        if ["eval", "trap", "ssh"].contains(first) { return first }
        return nil
    }

    /// An unquoted line break: the here-documents opened on the line start.
    private mutating func newline() {
        atWordStart = true
        if !pending.isEmpty {
            line = ""
            stack.append(.hereDocument(pending.removeFirst()))
        }
    }

    /// Reads one character of a here-document delimiter; false when the character ends the word and is to be read
    /// as script.
    private mutating func readDelimiter(_ c: Unicode.Scalar) -> Bool {
        guard var word = delimiter else { return false }
        if word.escaped {
            word.escaped = false
            word.text.unicodeScalars.append(c)
        } else if let quote = word.quote {
            if c == quote { word.quote = nil } else { word.text.unicodeScalars.append(c) }
        } else if (c == " " || c == "\t") && !word.started {
            // Blanks between `<<` and the word.
        } else if [" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"].contains(c) {
            if word.started {
                pending.append(HereDocument(delimiter: word.text, quoted: word.quoted, stripsTabs: word.stripsTabs))
            }
            delimiter = nil
            return false
        } else if c == "'" || c == "\"" {
            word.started = true
            word.quoted = true
            word.quote = c
        } else if c == "\\" {
            word.started = true
            word.quoted = true
            word.escaped = true
        } else {
            word.started = true
            word.text.unicodeScalars.append(c)
        }
        delimiter = word
        return true
    }
}
