/// The command-line tools that come with macOS and Xcode, which exist only on a Mac.
public enum AppleTools {
    /// Commands a step may run that only a Mac (with Xcode) has: `xcodebuild`, `xcrun` and its tools, `security`.
    public static let commands: Set<String> = [
        "xcodebuild", "xcrun", "security", "codesign", "xcode-select", "agvtool", "altool", "notarytool",
        "iTMSTransporter", "simctl", "plutil", "pkgbuild", "productbuild", "productsign", "spctl", "stapler",
    ]

    /// Whether `command` (a name or a path) is one of ``commands``.
    public static func isAppleTool(_ command: String) -> Bool {
        commands.contains(command.split(separator: "/").last.map(String.init) ?? command)
    }
}
