/// What an option's text is, for `release steps`: `@StepOption(.path, help: …) var output: String` shows `path`,
/// and a list of them `[path]`.
public struct OptionFormat: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The word `release steps` shows in place of `string`.
    public var name: String
    /// Whether the step creates the path: a step that reads it runs after this one even without `needs`.
    public var createsPath: Bool = false

    public init(stringLiteral name: String) {
        self.name = name
    }

    /// A format named `name`; `createsPath` marks a path the step writes.
    public init(name: String, createsPath: Bool) {
        self.name = name
        self.createsPath = createsPath
    }

    /// Any text.
    public static let string: OptionFormat = "string"
    /// A file or folder, relative to the working directory.
    public static let path: OptionFormat = "path"
    /// A file or folder the step creates (shown as `path`): a step that reads the same path depends on this one
    /// without `needs` (an implicit edge, DESIGN §4).
    public static let output = OptionFormat(name: "path", createsPath: true)
    /// An `fnmatch` pattern.
    public static let glob: OptionFormat = "glob"
    /// A regular expression.
    public static let regex: OptionFormat = "regex"
}
