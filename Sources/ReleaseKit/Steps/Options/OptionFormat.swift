/// What an option's text is, for `release steps`: `@StepOption(.path, help: …) var output: String` shows `path`,
/// and a list of them `[path]`.
package struct OptionFormat: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The word `release steps` shows in place of `string`.
    package var name: String
    /// Whether the step creates the path: a step that reads it runs after this one even without `needs`.
    package var createsPath: Bool = false

    package init(stringLiteral name: String) {
        self.name = name
    }

    /// A format named `name`; `createsPath` marks a path the step writes.
    package init(name: String, createsPath: Bool) {
        self.name = name
        self.createsPath = createsPath
    }

    /// Any text.
    package static let string: OptionFormat = "string"
    /// A file or folder, relative to the working directory.
    package static let path: OptionFormat = "path"
    /// A file or folder the step creates (shown as `path`): a step that reads the same path depends on this one
    /// without `needs` (an implicit edge, DESIGN §4).
    package static let output = OptionFormat(name: "path", createsPath: true)
    /// An `fnmatch` pattern.
    package static let glob: OptionFormat = "glob"
    /// A regular expression.
    package static let regex: OptionFormat = "regex"
}
