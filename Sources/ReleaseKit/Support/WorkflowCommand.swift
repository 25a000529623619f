/// A GitHub Actions workflow command (`::error file=a.swift,line=3::message`), escaped as the runner expects.
///
/// The runner splits properties on `,` and the name from the value on `:`, and reads one command per line,
/// so data escapes `%`, CR and LF, and property values also escape `:` and `,`
/// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
package struct WorkflowCommand: Sendable, Equatable {
    /// `error`, `warning`, `notice`, `group`, `endgroup`, `add-mask`.
    package var name: String
    /// Properties in the order they are written (`file`, `line`, `col`, `title`).
    package var properties: [(key: String, value: String)]
    package var message: String

    package init(_ name: String, _ properties: [(key: String, value: String)] = [], message: String = "") {
        self.name = name
        self.properties = properties
        self.message = message
    }

    /// The command line, without a line break.
    package var line: String {
        let list = properties.map { "\($0.key)=\(Self.escapeProperty($0.value))" }.joined(separator: ",")
        return "::\(name)\(list.isEmpty ? "" : " " + list)::\(Self.escapeData(message))"
    }

    /// Escapes a command's message.
    package static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value.
    package static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    package static func == (left: Self, right: Self) -> Bool {
        left.name == right.name && left.message == right.message
            && left.properties.map(\.key) == right.properties.map(\.key) && left.properties.map(\.value) == right.properties.map(\.value)
    }
}
