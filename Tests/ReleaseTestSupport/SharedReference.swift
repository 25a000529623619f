import Foundation

/// `../shared` beside the repository: third-party reference data the team keeps next to its checkout and does not
/// commit (other projects' licences): the Xcode files of 8 open-source apps (`real-projects`), Apple's App Store
/// Connect contract and GitLab's CI schema (`reference/…`). A fresh clone has none of it.
///
/// A test that reads a piece of it runs only when the piece is there, and otherwise is skipped with
/// ``reason(_:)``, which says what is missing and how to get it (each test target turns this into a Swift
/// Testing trait, `.needsShared("real-projects")`). With `RELEASE_REQUIRE_SHARED=1` (`.ci/run` sets it) the
/// test always runs, and a missing piece fails it, so a CI that has the folder cannot pass by skipping.
package enum SharedReference {
    /// One piece of `../shared` that tests read.
    package enum Piece: String, Sendable, CaseIterable {
        case realProjects = "real-projects"
        case appStoreConnect = "reference/app-store-connect/openapi-release-subset-4.4.1-extended.json"
        case gitlabCI = "reference/gitlab-ci/ci.schema.json"
        case sentry = "reference/sentry/sentry-release-health-subset.json"

        /// What the piece is and how to get it.
        var source: String {
            switch self {
            case .realProjects:
                return "the Xcode files of 8 open-source apps and 21 of their version-bump commits (README, "
                    + "\"Versions in real projects\"); copy the team's shared/real-projects folder there"
            case .appStoreConnect:
                return "the release operations of Apple's App Store Connect OpenAPI document "
                    + "(https://developer.apple.com/sample-code/app-store-connect/app-store-connect-openapi-specification.zip), "
                    + "cut by the team's shared/reference/app-store-connect/extract.py; copy that folder there"
            case .sentry:
                return "the release-health operations of Sentry's OpenAPI document (getsentry/sentry-api-schema), "
                    + "cut by the team's shared/reference/sentry/extract.py; copy that folder there"
            case .gitlabCI:
                return "GitLab's .gitlab-ci.yml schema (gitlab-org/gitlab, app/assets/javascripts/editor/schema/ci.json); "
                    + "put it there or give its path in RELEASE_GITLAB_CI_SCHEMA"
            }
        }
    }

    /// The folder: RELEASE_SHARED_PATH when set (a copy kept elsewhere), else the repository root's parent +
    /// `/shared` (this file is `Tests/ReleaseTestSupport/…` in the root).
    package static let root: String = {
        if let given = ProcessInfo.processInfo.environment["RELEASE_SHARED_PATH"], !given.isEmpty { return given }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared").path
    }()

    /// Where `piece` is expected.
    package static func path(_ piece: Piece) -> String { root + "/" + piece.rawValue }

    /// Whether `piece` is there.
    package static func isPresent(_ piece: Piece) -> Bool {
        switch piece {
        case .realProjects: return FileManager.default.fileExists(atPath: path(piece) + "/README.md")
        case .gitlabCI:
            return FileManager.default.fileExists(atPath: path(piece))
                || ProcessInfo.processInfo.environment["RELEASE_GITLAB_CI_SCHEMA"].map { FileManager.default.fileExists(atPath: $0) } == true
        case .appStoreConnect, .sentry: return FileManager.default.fileExists(atPath: path(piece))
        }
    }

    /// Whether a missing `../shared` is a failure rather than a skip (`RELEASE_REQUIRE_SHARED=1`).
    package static var isRequired: Bool { ProcessInfo.processInfo.environment["RELEASE_REQUIRE_SHARED"] == "1" }

    /// Whether a test that reads `piece` runs: the piece is there, or it is required (and the test then fails).
    package static func runs(_ piece: Piece) -> Bool { isPresent(piece) || isRequired }

    /// Why a test that reads `piece` is skipped (or, when required, why it fails): what is missing, where it was
    /// expected, and how to get it.
    package static func reason(_ piece: Piece) -> String {
        "../shared/\(piece.rawValue) is missing (expected at \(path(piece)), or under RELEASE_SHARED_PATH): "
            + "\(piece.source). Without it this test is skipped; RELEASE_REQUIRE_SHARED=1 (CI) makes that a failure"
    }
}
