/// The installed Xcode's version, as `xcodebuild -version` prints it (`Xcode 16.2` then `Build version 16C5032a`).
package struct XcodeVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// `16` in 16.2.
    package var major: Int
    /// `2` in 16.2.
    package var minor: Int
    /// `16C5032a`; empty when not printed.
    package var build: String

    package init(major: Int, minor: Int = 0, build: String = "") {
        self.major = major
        self.minor = minor
        self.build = build
    }

    /// Reads `xcodebuild -version` output; nil when it has no `Xcode X.Y` line.
    package init?(versionOutput: String) {
        var found: (Int, Int)?
        var build = ""
        for line in versionOutput.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == "Xcode" {
                let parts = words[1].split(separator: ".").map { Int($0) }
                guard let major = parts.first ?? nil else { return nil }
                found = (major, parts.count > 1 ? (parts[1] ?? 0) : 0)
            } else if line.hasPrefix("Build version ") {
                build = String(line.dropFirst("Build version ".count))
            }
        }
        guard let found else { return nil }
        self.init(major: found.0, minor: found.1, build: build)
    }

    /// `16.2`.
    package var description: String { "\(major).\(minor)" }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
