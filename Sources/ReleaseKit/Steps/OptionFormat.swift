/// What an option's text is, for `release steps`: `@Option(.path, help: …) var output: String` shows `path`,
/// and a list of them `[path]`.
public struct OptionFormat: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The word `release steps` shows in place of `string`.
    public var name: String

    public init(stringLiteral name: String) {
        self.name = name
    }

    /// Any text.
    public static let string: OptionFormat = "string"
    /// A file or folder, relative to the working directory.
    public static let path: OptionFormat = "path"
    /// An `fnmatch` pattern.
    public static let glob: OptionFormat = "glob"
    /// A regular expression.
    public static let regex: OptionFormat = "regex"
}
