import ReleaseSupport

/// One problem in a pipeline file: where it is (file, line, column, JSON path) and what is wrong, with the
/// offending value quoted in the message.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible, Codable {
    package var file: String
    package var location: SourceLocation?
    package var path: String?
    package var message: String

    package init(file: String, location: SourceLocation?, path: JSONPath?, message: String) {
        self.file = file
        self.location = location
        self.path = path.map { Echo.text($0.description, limit: 200) }
        self.message = Echo.message(message)
    }

    /// `Pipelines/release.json:14:9: error: $.steps[3].with.ouput: unknown option 'ouput' (did you mean 'output'?)`
    package var description: String {
        var text = file
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": error: "
        if let path, path != "$" { text += "\(path): " }
        return text + message
    }
}

extension Diagnostic {
    /// The diagnostic as a GitHub Actions annotation: `::error file=…,line=…,col=…::message`.
    package var githubAnnotation: String {
        var properties = [(key: "file", value: file)]
        if let location {
            properties.append((key: "line", value: "\(location.line)"))
            properties.append((key: "col", value: "\(location.column)"))
        }
        let text = (path.map { $0 == "$" ? "" : "\($0): " } ?? "") + message
        return WorkflowCommand("error", properties, message: text).line
    }
}
