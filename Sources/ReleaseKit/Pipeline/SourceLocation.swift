/// A position in a pipeline file, 1-based.
package struct SourceLocation: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}
