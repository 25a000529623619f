import Foundation

/// A project's versions as read: the ``VersionReport`` plus, for every entry, the definitions a bump edits.
public struct ProjectVersions: Sendable {
    /// One entry and the origins of its values.
    public struct Tracked: Sendable {
        /// The report row.
        public var entry: VersionEntry
        /// Where the version's literal is, if it has one.
        public var versionOrigin: ValueOrigin?
        /// Where the build number's literal is, if it has one.
        public var buildOrigin: ValueOrigin?
        /// Whether a bump changes this entry (apps and what they ship; see ``VersionReader``).
        public var bumps: Bool
    }

    /// What `release version` prints.
    public var report: VersionReport
    /// The entries in report order with their origins.
    public var tracked: [Tracked]
    /// The folder report paths are relative to.
    public var baseDirectory: String

    /// The current version a bump starts from: the primary target's.
    public var currentVersion: String? { report.version }
    /// The current build number.
    public var currentBuild: String? { report.build }

    /// `path` relative to ``baseDirectory`` when inside it.
    public func displayPath(_ path: String) -> String {
        Self.relative(path, to: baseDirectory)
    }

    static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
