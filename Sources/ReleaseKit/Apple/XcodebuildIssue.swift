import ReleaseSupport

/// A warning or error xcodebuild printed: `/path/File.swift:12:5: error: message`, or `error: message` without a place.
package struct XcodebuildIssue: Sendable, Equatable {
    /// `error` or `warning`.
    package enum Severity: String, Sendable, Equatable {
        case error
        case warning
    }

    package var severity: Severity
    package var file: String?
    package var line: Int?
    package var column: Int?
    package var message: String

    package init(severity: Severity, file: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// Reads one output line; nil when it is not an issue. Notes (`note:`) are not issues.
    package init?(line text: String) {
        for severity in [Severity.error, .warning] {
            let marker = "\(severity.rawValue): "
            if text.hasPrefix(marker) {
                self.init(severity: severity, message: String(text.dropFirst(marker.count)))
                return
            }
            guard let range = text.range(of: ": \(marker)") else { continue }
            let place = text[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let message = String(text[range.upperBound...])
            // FILE:LINE:COLUMN, FILE:LINE, or FILE (a file path never starts with a space).
            guard let file = place.first, !file.isEmpty, !file.hasPrefix(" ") else { continue }
            let numbers = place.dropFirst().map { Int($0) }
            guard !numbers.contains(where: { $0 == nil }), numbers.count <= 2 else { continue }
            self.init(
                severity: severity, file: file, line: numbers.first ?? nil, column: numbers.count > 1 ? numbers[1] : nil,
                message: message)
            return
        }
        return nil
    }

    /// The GitHub Actions annotation for it: `::error file=…,line=…,col=…::message`.
    package var annotation: WorkflowCommand {
        var properties: [(key: String, value: String)] = []
        if let file { properties.append(("file", file)) }
        if let line { properties.append(("line", String(line))) }
        if let column { properties.append(("col", String(column))) }
        return WorkflowCommand(severity.rawValue, properties, message: message)
    }

    /// `File.swift:12:5: error: message`, the file without its folders.
    package var summary: String {
        var place = ""
        if let file {
            place = (file.split(separator: "/").last.map(String.init) ?? file)
            if let line { place += ":\(line)" }
            if let column { place += ":\(column)" }
            place += ": "
        }
        return "\(place)\(severity.rawValue): \(message)"
    }
}
