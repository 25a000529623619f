/// A position in a pipeline file, 1-based.
public struct SourceLocation: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
