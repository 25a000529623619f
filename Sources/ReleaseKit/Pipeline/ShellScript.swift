import ReleaseSupport

/// A `shell: true` script whose `${…}` values reach `/bin/sh` as environment variables, never as script text.
///
/// Each distinct reference becomes `RELEASE_V_1`, `RELEASE_V_2`, … in the command's environment, and the script
/// refers to it with the quoting its place needs (``ShellScriptScanner``): `"${RELEASE_V_1}"` outside quotes,
/// `${RELEASE_V_1}` inside the author's double quotes or an expanding here-document, `'"${RELEASE_V_1}"'` inside single
/// quotes. A branch named `release/$(touch x)` or a version `1.0"; rm -rf ~; "` is then text, one word, wherever it
/// lands. References in places no quoting makes safe (backquotes, arithmetic, `$'…'`, a quoted here-document, a
/// delimiter, after a backslash) are ``problems``, reported by `validate`.
package struct ShellScript: Sendable {
    /// A reference that cannot be put in the script safely.
    package struct Problem: Sendable, Equatable {
        /// The reference as written (`${git.branch}`).
        package var source: String
        /// Where it is and what to do instead.
        package var reason: String
    }

    /// The environment variables' names: this prefix and a number.
    package static let variablePrefix = "RELEASE_V_"

    package let template: Template
    /// For each segment of ``template``: how a reference there is written (nil for literal text).
    private let placements: [ShellScriptScanner.Placement?]
    /// For each segment: the number of its variable.
    private let numbers: [Int?]

    /// Parses `text` and follows its quoting.
    /// - Throws: ``Template/ParseError`` for a malformed reference.
    package init(parsing text: String) throws(Template.ParseError) {
        template = try Template(parsing: text)
        var scanner = ShellScriptScanner()
        var placements: [ShellScriptScanner.Placement?] = []
        var numbers: [Int?] = []
        var numberOf: [String: Int] = [:]
        for segment in template.segments {
            switch segment {
            case .literal(let literal):
                scanner.scan(literal)
                placements.append(nil)
                numbers.append(nil)
            case .reference(_, let source):
                placements.append(scanner.place())
                let number = numberOf[source] ?? numberOf.count + 1
                numberOf[source] = number
                numbers.append(number)
            }
        }
        self.placements = placements
        self.numbers = numbers
    }

    /// The references that cannot be put in the script safely, in order.
    package var problems: [Problem] {
        zip(template.segments, placements).compactMap { segment, placement in
            guard case .reference(_, let source) = segment, case .refused(let reason)? = placement else { return nil }
            return Problem(source: source, reason: reason)
        }
    }

    /// The script with each reference replaced by its variable, and the variables' values from `value`; nil when a
    /// reference is in a place that cannot be made safe (``problems``).
    /// - Throws: what `value` throws.
    package func render<Failure: Error>(_ value: (TemplateReference) throws(Failure) -> String) throws(Failure) -> (script: String, environment: [String: String])? {
        var script = ""
        var environment: [String: String] = [:]
        for (index, segment) in template.segments.enumerated() {
            switch segment {
            case .literal(let text):
                script += text
            case .reference(let reference, _):
                let name = Self.variablePrefix + String(numbers[index] ?? 0)
                guard let written = placements[index]?.reference(to: name) else { return nil }
                if environment[name] == nil { environment[name] = try value(reference) }
                script += written
            }
        }
        return (script, environment)
    }

    /// A shell's `-c` script inside an argv (``ShellInvocation``) that holds a `${…}` reference no environment variable
    /// can carry: in an option whose kind does not pass values through its environment, or behind `env -i`.
    package struct ArgvProblem: Sendable, Equatable {
        /// The script argument's node.
        package var node: JSONNode
        /// Where it is, from the node given.
        package var path: JSONPath
        /// The first reference in it, as written.
        package var source: String
        /// What is wrong and the safe spelling.
        package var reason: String
    }

    /// The `${…}` references in the `-c` scripts of the argv arrays in `node` that quoting through the environment does
    /// not cover: all of them except `handled`'s script (the kind's own script option, whose values go through its
    /// environment) unless that one clears the environment (`env -i`).
    package static func argvProblems(in node: JSONNode, handled: JSONNode? = nil, path: JSONPath = .root) -> [ArgvProblem] {
        switch node.value {
        case .array(let items):
            var problems: [ArgvProblem] = []
            let argv = items.map(\.string)
            if argv.allSatisfy({ $0 != nil }), let match = ShellInvocation.match(argv.map { $0 ?? "" }) {
                let index: Int
                let reason: String
                var covered = handled == node
                switch match {
                case .script(let at):
                    index = at
                    reason = "in a shell's -c script, where its value would be read as code; " + ShellInvocation.safeSpelling
                case .scriptWithoutEnvironment(let at):
                    index = at
                    covered = false
                    reason =
                        "in a shell's -c script behind 'env -i', where its value would be read as code and no environment variable reaches the shell; pass it as a positional argument ([\"sh\", \"-c\", \"echo \\\"$1\\\"\", \"sh\", \"${…}\"])"
                }
                if !covered, let text = argv[index], Template.mayContainReferences(text),
                    let template = try? Template(parsing: text),
                    let source = template.segments.lazy.compactMap({ segment -> String? in
                        if case .reference(_, let source) = segment { return source }
                        return nil
                    }).first
                {
                    problems.append(ArgvProblem(node: items[index], path: path.appending(index), source: source, reason: reason))
                }
            }
            for (offset, item) in items.enumerated() {
                problems += argvProblems(in: item, handled: handled, path: path.appending(offset))
            }
            return problems
        case .object(let members):
            return members.flatMap { argvProblems(in: $0.value, handled: handled, path: path.appending($0.key)) }
        case .null, .bool, .number, .string:
            return []
        }
    }
}
