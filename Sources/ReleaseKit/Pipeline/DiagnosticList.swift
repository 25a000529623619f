/// Collects every problem found in one file, so a single run reports all of them.
struct DiagnosticList {
    let file: String
    private(set) var items: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    mutating func add(_ message: String, at node: JSONNode, _ path: JSONPath) {
        items.append(Diagnostic(file: file, location: node.location, path: path, message: message))
    }

    mutating func add(_ message: String, at location: SourceLocation?, _ path: JSONPath?) {
        items.append(Diagnostic(file: file, location: location, path: path, message: message))
    }

    mutating func append(_ diagnostic: Diagnostic) {
        items.append(diagnostic)
    }

    var isEmpty: Bool { items.isEmpty }

    /// In file order; the sort is stable so problems at one place keep the order they were found in.
    var sorted: [Diagnostic] {
        items.enumerated().sorted { left, right in
            let l = left.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            let r = right.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            return l != r ? l < r : left.offset < right.offset
        }.map(\.element)
    }
}
