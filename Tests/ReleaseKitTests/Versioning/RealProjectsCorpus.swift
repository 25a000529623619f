import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseSupport

/// `../shared/real-projects` beside the repository: the Xcode files of 8 open-source apps and 21 of their real
/// version-bump commits (its README lists what each one tests). The tests that read it carry
/// `.needsShared(.realProjects)`: skipped without it, failing with this message under RELEASE_REQUIRE_SHARED=1 (CI).
enum RealProjectsCorpus {
    /// The corpus folder: the repository root's parent + `/shared/real-projects`.
    static let root = FilePath.normalized(SharedReference.path(.realProjects))

    /// The corpus root, or a failed expectation naming what is missing.
    static func require() throws -> String {
        try #require(SharedReference.isPresent(.realProjects), "\(SharedReference.reason(.realProjects))")
        return root
    }

    /// `<app>/head`.
    static func head(_ app: String) throws -> String {
        try require() + "/\(app)/head"
    }
}
