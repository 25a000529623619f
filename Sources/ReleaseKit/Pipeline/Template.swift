import ReleaseSupport

/// A string with `${...}` references, parsed once.
///
/// `$${` writes a literal `${`. Everything else is literal text.
package struct Template: Sendable, Equatable {
    /// A piece of the string.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        /// A reference, with its source text (`${steps.zip.outputs.path}`).
        case reference(TemplateReference, source: String)
    }

    /// Why a reference cannot be parsed.
    package struct ParseError: Error, Sendable, Equatable {
        package var message: String
    }

    package var segments: [Segment]

    /// Names a variable may have: letters, digits, `_`, `-`, and `.` for namespaces.
    static let reservedRoots: Set<String> = ["env", "secrets", "steps", "git", "profile", "now"]

    /// Parses `text`.
    package init(parsing text: String) throws(ParseError) {
        var segments: [Segment] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("$${") {
                literal += "${"
                index = text.index(index, offsetBy: 3)
                continue
            }
            if rest.hasPrefix("${") {
                guard let close = rest.firstIndex(of: "}") else {
                    throw ParseError(message: "unterminated '${' in '\(Echo.text(text))'")
                }
                let body = String(text[text.index(index, offsetBy: 2)..<close])
                let source = "${\(body)}"
                if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                segments.append(.reference(try Template.parseReference(body, source: source), source: source))
                index = text.index(after: close)
                continue
            }
            literal.append(text[index])
            index = text.index(after: index)
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// Every reference in `text`, each parsed on its own, so one bad reference does not hide the others.
    package static func scan(_ text: String) -> [Result<TemplateReference, ParseError>] {
        var results: [Result<TemplateReference, ParseError>] = []
        var rest = text[...]
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                rest = rest[start.upperBound...]
                continue
            }
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else {
                results.append(.failure(ParseError(message: "unterminated '${' in '\(Echo.text(text))'")))
                break
            }
            let body = String(rest[start.upperBound..<close])
            do {
                results.append(.success(try parseReference(body, source: "${\(body)}")))
            } catch {
                results.append(.failure(error))
            }
            rest = rest[rest.index(after: close)...]
        }
        return results
    }

    /// Whether `text` contains a reference at all (cheap check before parsing).
    package static func mayContainReferences(_ text: String) -> Bool {
        text.contains("${")
    }

    /// The references, in order.
    package var references: [TemplateReference] {
        segments.compactMap {
            if case .reference(let reference, _) = $0 { return reference }
            return nil
        }
    }

    /// The single reference when the whole string is one `${...}`, so its value keeps its type.
    package var wholeReference: TemplateReference? {
        if segments.count == 1, case .reference(let reference, _) = segments[0] { return reference }
        return nil
    }

    static func parseReference(_ body: String, source: String) throws(ParseError) -> TemplateReference {
        let trimmed = body.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { throw ParseError(message: "empty reference '\(source)'") }
        if trimmed == "profile" { return .profile }
        if trimmed == "now" { return .now(format: nil) }
        if trimmed.hasPrefix("now:") {
            let format = String(trimmed.dropFirst(4))
            if format.isEmpty { throw ParseError(message: "empty date format in '\(source)'") }
            return .now(format: format)
        }
        let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "env":
            guard parts.count == 2 else { throw ParseError(message: "'\(source)' needs a variable name: ${env.NAME}") }
            var name = parts[1]
            var fallback: String?
            if let range = name.range(of: ":-") {
                fallback = String(name[range.upperBound...])
                name = String(name[..<range.lowerBound])
            }
            try checkName(name, source: source, what: "environment variable")
            return .environment(name, fallback: fallback)
        case "secrets":
            guard parts.count == 2 else { throw ParseError(message: "'\(source)' needs a secret name: ${secrets.NAME}") }
            // A secret is an environment variable a CI fills from its secret store: GitHub's names are letters, digits
            // and `_`, not starting with a digit, and an exported workflow writes `${{ secrets.NAME }}`.
            let name = parts[1]
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first),
                name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
            else {
                throw ParseError(
                    message: "invalid secret name '\(Echo.text(name))' in '\(Echo.text(source))': letters, digits and '_', not starting with a digit")
            }
            return .secret(name)
        case "steps":
            let pieces = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard pieces.count == 4, pieces[2] == "outputs", !pieces[1].isEmpty, !pieces[3].isEmpty else {
                throw ParseError(message: "'\(source)' must have the form ${steps.ID.outputs.KEY}")
            }
            return .stepOutput(step: pieces[1], key: pieces[3])
        case "git":
            guard parts.count == 2, let field = TemplateReference.GitField(rawValue: parts[1]) else {
                let field = parts.count == 2 ? parts[1] : ""
                let names = TemplateReference.GitField.allCases.map(\.rawValue)
                throw ParseError(
                    message: "unknown git value '\(field)' in '\(source)'; known: \(names.joined(separator: ", "))"
                        + Suggestion.hint(for: field, in: names))
            }
            return .git(field)
        default:
            if parts.count == 2, !["var", "vars", "variables"].contains(parts[0]) {
                let roots = ["env", "secrets", "steps", "git"]
                throw ParseError(
                    message: "unknown namespace '\(parts[0])' in '\(source)'" + Suggestion.hint(for: parts[0], in: roots)
                        + "; known: \(roots.joined(separator: ", ")), or a variable name")
            }
            if parts.count == 2, ["var", "vars", "variables"].contains(parts[0]) {
                try checkName(parts[1], source: source, what: "variable")
                return .variable(parts[1])
            }
            try checkName(trimmed, source: source, what: "variable")
            return .variable(trimmed)
        }
    }

    private static func checkName(_ name: String, source: String, what: String) throws(ParseError) {
        let valid =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
            }
        if !valid { throw ParseError(message: "invalid \(what) name '\(Echo.text(name))' in '\(Echo.text(source))'") }
    }
}
