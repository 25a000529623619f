/// The command-line tools that come with macOS and Xcode, which exist only on a Mac.
package enum AppleTools {
    /// Commands a step may run that only a Mac (with Xcode) has: `xcodebuild`, `xcrun` and its tools, `security`.
    package static let commands: Set<String> = [
        "xcodebuild", "xcrun", "security", "codesign", "xcode-select", "agvtool", "altool", "notarytool",
        "iTMSTransporter", "simctl", "plutil", "pkgbuild", "productbuild", "productsign", "spctl", "stapler",
    ]

    /// Whether `command` (a name or a path) is one of ``commands``.
    package static func isAppleTool(_ command: String) -> Bool {
        commands.contains(command.split(separator: "/").last.map(String.init) ?? command)
    }

    /// How to install the tools a Mac build runs before Xcode (project generators, dependency managers), which
    /// `release init` writes as steps.
    static let installHints: [String: String] = [
        "xcodegen": "brew install xcodegen",
        "pod": "gem install cocoapods (or 'bundle install' when your Gemfile has it)",
        "tuist": "curl https://mise.run | sh && mise install tuist (tuist.dev)",
        "carthage": "brew install carthage",
        "bundle": "Bundler comes with Ruby 2.6 and later (or gem install bundler), then 'bundle install'",
    ]

    /// The install hint for `command` (a name or a path), when it is one of those tools.
    package static func installHint(_ command: String) -> String? {
        installHints[command.split(separator: "/").last.map(String.init) ?? command]
    }
}
