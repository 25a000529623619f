/// The C-preprocessor pass Xcode runs over an Info.plist when `INFOPLIST_PREPROCESS = YES`, reduced to what
/// plists use: `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`, `#define` and `#undef`, with the names from
/// `INFOPLIST_PREPROCESSOR_DEFINITIONS`.
///
/// The output has exactly the input's length: directive lines and lines of branches that are not taken are
/// overwritten with spaces (newlines kept), so every byte offset and line number found in the output is valid
/// in the file on disk, which is what a bump edits. Macros are not expanded inside the plist text.
package enum PlistPreprocessor {
    /// How deep conditionals and parentheses in `#if` expressions may nest.
    package static let maximumDepth = 64

    /// Whether `bytes` has any line starting with `#` (after blanks), the only case where preprocessing changes
    /// anything.
    package static func hasDirectives(_ bytes: [UInt8]) -> Bool {
        var atLineStart = true
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                atLineStart = true
            } else if atLineStart, byte == UInt8(ascii: "#") {
                return true
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                atLineStart = false
            }
        }
        return false
    }

    /// Preprocesses `bytes` with `definitions` (`NAME` or `NAME=VALUE`).
    /// - Throws: ``VersioningError/syntax(file:line:message:)`` for an unbalanced `#endif`/`#else` or nesting
    ///   deeper than ``maximumDepth``.
    package static func process(_ bytes: [UInt8], definitions: [String], path: String) throws -> [UInt8] {
        var macros: [String: String] = [:]
        for definition in definitions where !definition.isEmpty {
            let parts = definition.split(separator: "=", maxSplits: 1).map(String.init)
            macros[parts[0]] = parts.count > 1 ? parts[1] : "1"
        }
        // Each open conditional: whether its enclosing region is active, whether a branch was taken, whether the
        // current branch is active.
        var stack: [(parentActive: Bool, taken: Bool, active: Bool)] = []
        var output = bytes
        var start = 0
        var line = 0
        while start < bytes.count {
            line += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let active = stack.last?.active ?? true
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            if first < end, bytes[first] == UInt8(ascii: "#") {
                let text = String(decoding: bytes[(first + 1)..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                let directive = String(text.prefix { $0.isLetter })
                let argument = text.dropFirst(directive.count).trimmingCharacters(in: .whitespaces)
                func syntax(_ message: String) -> VersioningError { .syntax(file: path, line: line, message: message) }
                switch directive {
                case "if", "ifdef", "ifndef":
                    guard stack.count < maximumDepth else { throw syntax("conditionals nested deeper than \(maximumDepth) levels") }
                    let condition: Bool
                    switch directive {
                    case "ifdef": condition = macros[argument] != nil
                    case "ifndef": condition = macros[argument] == nil
                    default:
                        var expression = Expression(argument, macros: macros, error: syntax)
                        condition = try expression.evaluate()
                    }
                    stack.append((active, active && condition, active && condition))
                case "elif":
                    guard let top = stack.popLast() else { throw syntax("'#elif' without '#if'") }
                    var expression = Expression(argument, macros: macros, error: syntax)
                    let condition = try expression.evaluate() && !top.taken && top.parentActive
                    stack.append((top.parentActive, top.taken || condition, condition))
                case "else":
                    guard let top = stack.popLast() else { throw syntax("'#else' without '#if'") }
                    stack.append((top.parentActive, true, top.parentActive && !top.taken))
                case "endif":
                    guard stack.popLast() != nil else { throw syntax("'#endif' without '#if'") }
                case "define" where active:
                    let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
                    if let name = parts.first { macros[name] = parts.count > 1 ? parts[1] : "1" }
                case "undef" where active:
                    macros[argument] = nil
                default:
                    break
                }
                for index in start..<end { output[index] = UInt8(ascii: " ") }
            } else if !active {
                for index in start..<end where bytes[index] != UInt8(ascii: "\r") { output[index] = UInt8(ascii: " ") }
            }
            start = end + 1
        }
        if !stack.isEmpty {
            throw VersioningError.syntax(file: path, line: line, message: "'#if' without '#endif'")
        }
        return output
    }

    /// A `#if` expression: integers, names (a defined macro's value, else 0), `defined(NAME)`, `defined NAME`,
    /// `!`, `&&`, `||`, comparisons and parentheses.
    private struct Expression {
        var tokens: [String]
        var index = 0
        let macros: [String: String]
        let error: (String) -> VersioningError
        var depth = 0

        init(_ text: String, macros: [String: String], error: @escaping (String) -> VersioningError) {
            var tokens: [String] = []
            var current = ""
            let characters = Array(text)
            var position = 0
            func flush() {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            }
            while position < characters.count {
                let character = characters[position]
                if character.isLetter || character.isNumber || character == "_" {
                    current.append(character)
                } else {
                    flush()
                    if character == "/", position + 1 < characters.count, characters[position + 1] == "/" { break }
                    let pair = position + 1 < characters.count ? String([character, characters[position + 1]]) : ""
                    if ["&&", "||", "==", "!=", ">=", "<="].contains(pair) {
                        tokens.append(pair)
                        position += 1
                    } else if !character.isWhitespace {
                        tokens.append(String(character))
                    }
                }
                position += 1
            }
            flush()
            self.tokens = tokens
            self.macros = macros
            self.error = error
        }

        mutating func evaluate() throws -> Bool {
            let value = try parseOr()
            guard index == tokens.count else { throw error("unexpected '\(tokens[index])' in '#if' expression") }
            return value != 0
        }

        private mutating func next() -> String? {
            guard index < tokens.count else { return nil }
            defer { index += 1 }
            return tokens[index]
        }

        private mutating func parseOr() throws -> Int {
            var value = try parseAnd()
            while index < tokens.count, tokens[index] == "||" {
                index += 1
                let right = try parseAnd()
                value = (value != 0 || right != 0) ? 1 : 0
            }
            return value
        }

        private mutating func parseAnd() throws -> Int {
            var value = try parseComparison()
            while index < tokens.count, tokens[index] == "&&" {
                index += 1
                let right = try parseComparison()
                value = (value != 0 && right != 0) ? 1 : 0
            }
            return value
        }

        private mutating func parseComparison() throws -> Int {
            let left = try parseUnary()
            guard index < tokens.count, ["==", "!=", ">", "<", ">=", "<="].contains(tokens[index]) else { return left }
            let operation = tokens[index]
            index += 1
            let right = try parseUnary()
            switch operation {
            case "==": return left == right ? 1 : 0
            case "!=": return left != right ? 1 : 0
            case ">": return left > right ? 1 : 0
            case "<": return left < right ? 1 : 0
            case ">=": return left >= right ? 1 : 0
            default: return left <= right ? 1 : 0
            }
        }

        private mutating func parseUnary() throws -> Int {
            depth += 1
            defer { depth -= 1 }
            guard depth <= PlistPreprocessor.maximumDepth else { throw error("'#if' expression nested too deeply") }
            guard let token = next() else { throw error("incomplete '#if' expression") }
            switch token {
            case "!":
                return try parseUnary() == 0 ? 1 : 0
            case "(":
                let value = try parseOr()
                guard next() == ")" else { throw error("missing ')' in '#if' expression") }
                return value
            case "defined":
                let parenthesized = index < tokens.count && tokens[index] == "("
                if parenthesized { index += 1 }
                guard let name = next() else { throw error("'defined' without a name") }
                if parenthesized, next() != ")" { throw error("missing ')' after 'defined(\(name)'") }
                return macros[name] != nil ? 1 : 0
            default:
                if let number = Int(token) { return number }
                if let value = macros[token] { return Int(value) ?? 1 }
                return 0
            }
        }
    }
}
