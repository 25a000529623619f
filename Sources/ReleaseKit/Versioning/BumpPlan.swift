import Foundation

/// What a bump will change: the versions before and after, and every file edit.
package struct BumpPlan: Sendable, Equatable {
    /// The version before the bump.
    package var previousVersion: String?
    /// The build number before the bump.
    package var previousBuild: String?
    /// The version after the bump (the previous one when only the build changes).
    package var version: String?
    /// The build number after the bump (the previous one with `keep`).
    package var build: String?
    /// Files to rewrite, in the order they are first met (project file, then xcconfigs and plists).
    package var files: [FileEdit]
    /// Targets left alone or moved although out of step, and XcodeGen specs that could not follow, one line each.
    package var notes: [String]

    /// Creates a value from its parts.
    package init(
        previousVersion: String?, previousBuild: String?, version: String?, build: String?, files: [FileEdit], notes: [String] = []
    ) {
        self.previousVersion = previousVersion
        self.previousBuild = previousBuild
        self.version = version
        self.build = build
        self.files = files
        self.notes = notes
    }

    /// A warning when the new version sorts before the previous one (`3.0.0` → `2.0`), which App Store Connect
    /// rejects; `nil` otherwise.
    package var downgradeWarning: String? {
        guard let previous = previousVersion.flatMap(SemanticVersion.init), let next = version.flatMap(SemanticVersion.init),
            next < previous
        else { return nil }
        return "the new version '\(next)' is lower than the current '\(previous)'"
    }

    /// Every change in every file.
    package var changes: [ValueChange] { files.flatMap(\.changes) }

    /// The unified diffs of every text file and a line for each binary one: what `--dry-run` prints.
    package var diff: String {
        files.map { file in
            file.diff ?? "Binary file \(file.displayPath) changes: \(file.summary)\n"
        }.joined()
    }

    /// What `release bump --json` prints: versions and files with their old and new values.
    package struct Summary: Sendable, Codable, Equatable {
        /// One file in the summary.
        package struct File: Sendable, Codable, Equatable {
            /// The file, relative to the project folder.
            package var path: String
            /// The values changed in the file.
            package var changes: [ValueChange]
            /// The unified diff, in dry runs of text files.
            package var diff: String?
        }
        /// The version before the bump.
        package var previousVersion: String?
        /// The build number before the bump.
        package var previousBuild: String?
        /// The version after the bump.
        package var version: String?
        /// The build number after the bump.
        package var build: String?
        /// The files, in the order they are written.
        package var files: [File]
        /// The branch created, if any.
        package var branch: String?
        /// The commit created, if any.
        package var commit: String?
        /// Whether nothing was written.
        package var dryRun: Bool
        /// Targets left alone and other notes; absent when there are none.
        package var notes: [String]?
    }

    /// The JSON summary (snake_case keys, sorted, pretty-printed, trailing newline).
    package func jsonText(branch: String? = nil, commit: String? = nil, dryRun: Bool = false) throws -> String {
        let summary = Summary(
            previousVersion: previousVersion, previousBuild: previousBuild, version: version, build: build,
            files: files.map { Summary.File(path: $0.displayPath, changes: $0.changes, diff: dryRun ? $0.diff : nil) }, branch: branch, commit: commit,
            dryRun: dryRun, notes: notes.isEmpty ? nil : notes
        )
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n"
    }
}
