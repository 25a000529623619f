/// A file the project refers to that is not there: a git-ignored `.xcconfig` (secrets, CocoaPods'
/// `Pods/Target Support Files/…`), an `#include` of one, an Info.plist, an XcodeGen `include`.
///
/// Xcode warns and builds without it, so the engine does the same: it reads on, and whatever the file could have
/// defined is reported as uncertain rather than failing the whole read.
package struct MissingFile: Sendable, Hashable {
    /// How the file is referred to.
    package enum Reference: String, Sendable {
        /// `baseConfigurationReference` (or the Xcode 16 anchor form) of a build configuration.
        case baseConfiguration = "base configuration"
        /// `#include "…"` in an `.xcconfig`.
        case include = "included file"
        /// `#include? "…"`: optional, Xcode is silent about it.
        case optionalInclude = "optionally included file"
        /// `INFOPLIST_FILE`.
        case infoPlist = "Info.plist"
        /// An XcodeGen `include:` or `configFiles:` entry.
        case xcodegen = "XcodeGen file"
    }

    /// Absolute path of the file that does not exist.
    package var path: String
    /// How it is referred to.
    package var reference: Reference
    /// Where it is referred to: `file:line`, absolute path.
    package var referencedAt: String

    /// Creates a value from its parts.
    package init(path: String, reference: Reference, referencedAt: String) {
        self.path = path
        self.reference = reference
        self.referencedAt = referencedAt
    }
}
