import Foundation

/// A bump in progress: the project as read and the one new build number every choice shares. `release bump`
/// and the `version.bump` step both start here, then pick a ``VersionChoice`` (from flags or the prompt) and
/// turn it into a ``BumpPlan``.
package struct BumpSession: Sendable {
    /// The project as read.
    package let versions: ProjectVersions
    /// The build number the bump writes; `nil` when it keeps build numbers or the project has none.
    package let newBuild: String?
    /// The targets to move (`--target`); empty: decided by ``BumpScope``.
    package let targets: [String]
    /// The app being released (`version.bump`'s `app`); nil: the project's main app.
    package let app: String?

    /// Reads the project and computes the new build number.
    /// - Parameters:
    ///   - project: `--project`, `nil` for the folder's only `.xcodeproj` (or its `VERSION` file).
    ///   - file: `--file`, a file holding a single version.
    ///   - directory: where relative paths start.
    ///   - strategy: how to compute the build number.
    ///   - environment: for `env:NAME`.
    ///   - now: for `timestamp`.
    ///   - commitCount: counts commits in a folder, for `git-count`.
    ///   - targets: `--target`: the targets to move; empty for the automatic choice.
    /// - Throws: ``VersioningError``.
    package static func prepare(
        project: String?, file: String?, in directory: String, strategy: BuildNumberStrategy,
        environment: [String: String], now: Date, commitCount: @Sendable (String) async throws -> Int,
        targets: [String] = [], app: String? = nil
    ) async throws -> BumpSession {
        let versions = try VersionReader.read(project: project, file: file, in: directory)
        let scope = try BumpScope(versions, targets: targets, app: app)
        let bumped = scope.buildEntries.map { versions.tracked[$0] }
        var newBuild: String?
        // A project without build numbers (a VERSION file with no "+build") gets none.
        if bumped.contains(where: { $0.buildOrigin != nil }) {
            let base = versions.baseDirectory
            newBuild = try await strategy.resolve(
                currentBuilds: bumped.compactMap(\.entry.build), environment: environment, now: now,
                commitCount: { try await commitCount(base) }
            )
        }
        return BumpSession(versions: versions, newBuild: newBuild, targets: targets, app: app)
    }

    /// Creates a value from its parts.
    package init(versions: ProjectVersions, newBuild: String?, targets: [String] = [], app: String? = nil) {
        self.app = app
        self.versions = versions
        self.newBuild = newBuild
        self.targets = targets
    }

    /// The interactive menu for this project.
    /// - Throws: ``VersioningError/nothingToBump(project:)`` or ``VersioningError/invalidVersion(_:context:)``
    ///   when the current version cannot be bumped.
    package func prompt() throws -> BumpPrompt {
        guard let currentText = versions.current(.version, of: targets.first) else {
            throw VersioningError.nothingToBump(project: versions.report.project)
        }
        let current = try SemanticVersion.parse(currentText, context: versions.primaryVersionLocation)
        let currentBuild = versions.current(.build, of: targets.first)
        return BumpPrompt(current: current, currentBuild: currentBuild, newBuild: newBuild ?? currentBuild)
    }

    /// The file edits for `choice`.
    package func plan(_ choice: VersionChoice) throws -> BumpPlan {
        try BumpPlanner.plan(versions, choice: choice, build: newBuild, targets: targets, app: app)
    }
}
