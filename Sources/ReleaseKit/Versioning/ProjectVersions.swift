import Foundation

/// A project's versions as read: the ``VersionReport`` plus, for every entry, the definitions a bump edits.
package struct ProjectVersions: Sendable {
    /// One entry and the origins of its values.
    package struct Tracked: Sendable {
        /// A build setting that mirrors a literal Info.plist value: agvtool-era projects keep
        /// `CURRENT_PROJECT_VERSION` equal to a literal `CFBundleVersion`, and a bump keeps the two equal.
        package struct Mirror: Sendable, Equatable {
            /// Where the setting's literal is.
            package var origin: ValueOrigin
            /// The setting's value.
            package var value: String?

            /// Creates a value from its parts.
            package init(origin: ValueOrigin, value: String?) {
                self.origin = origin
                self.value = value
            }
        }

        /// The report row.
        package var entry: VersionEntry
        /// Where the version's literal is, if it has one.
        package var versionOrigin: ValueOrigin?
        /// Where the build number's literal is, if it has one.
        package var buildOrigin: ValueOrigin?
        /// Whether the target ships inside its host app and must carry the app's version (an extension, a watch
        /// app, an App Clip).
        package var mustMatchHost: Bool
        /// `MARKETING_VERSION` when the version is a literal in the Info.plist and the setting is a literal too.
        package var versionMirror: Mirror?
        /// `CURRENT_PROJECT_VERSION` when the build is a literal in the Info.plist and the setting is a literal too.
        package var buildMirror: Mirror?
        /// The target's `SDKROOT` in this configuration (`iphoneos`, `appletvos`, `macosx`, `xros`, `watchos`), when set.
        package var sdk: String?
        /// The target's `DEVELOPMENT_TEAM` in this configuration, when set.
        package var developmentTeam: String?
        /// How the target is signed in this configuration, for a device build.
        package var signing: SigningSettings?

        /// Creates a value from its parts.
        package init(
            entry: VersionEntry, versionOrigin: ValueOrigin?, buildOrigin: ValueOrigin?, mustMatchHost: Bool = false,
            versionMirror: Mirror? = nil, buildMirror: Mirror? = nil
        ) {
            self.entry = entry
            self.versionOrigin = versionOrigin
            self.buildOrigin = buildOrigin
            self.mustMatchHost = mustMatchHost
            self.versionMirror = versionMirror
            self.buildMirror = buildMirror
        }
    }

    /// What `release version` prints.
    package var report: VersionReport
    /// The entries in report order with their origins.
    package var tracked: [Tracked]
    /// The folder report paths are relative to.
    package var baseDirectory: String
    /// The project as read, for Xcode projects and XcodeGen specs.
    package var project: XcodeProject?
    /// The XcodeGen spec beside the project, read as a project: a bump edits it too.
    package var xcodegen: XcodeProject?
    /// The missing file (absolute) each missing-file line of the report's warnings is about, so they can be told
    /// apart by where the file is (``warnings(generated:)``).
    package var missingFiles: [String: String] = [:]

    /// Creates a value from its parts.
    package init(
        report: VersionReport, tracked: [Tracked], baseDirectory: String, project: XcodeProject? = nil, xcodegen: XcodeProject? = nil
    ) {
        self.report = report
        self.tracked = tracked
        self.baseDirectory = baseDirectory
        self.project = project
        self.xcodegen = xcodegen
    }

    /// The current version a bump starts from: the primary target's.
    package var currentVersion: String? { report.version }
    /// The current build number.
    package var currentBuild: String? { report.build }

    /// `path` relative to ``baseDirectory`` when inside it.
    package func displayPath(_ path: String) -> String {
        Self.relative(path, to: baseDirectory)
    }

    static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
