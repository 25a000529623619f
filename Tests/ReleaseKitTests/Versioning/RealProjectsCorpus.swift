import Foundation
import Testing

@testable import ReleaseKit

/// `../shared/real-projects` beside the repository: the Xcode files of 8 open-source apps and 21 of their real
/// version-bump commits (its README lists what each one tests). CI always has it; a run without it fails with
/// this message rather than skipping, so a missing corpus cannot pass for a green run.
enum RealProjectsCorpus {
    /// The corpus folder: the repository root's parent + `/shared/real-projects`.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return FilePath.normalized(url.deletingLastPathComponent().appendingPathComponent("shared/real-projects").path)
    }()

    /// The corpus root, or a failed expectation naming what is missing.
    static func require() throws -> String {
        try #require(
            FileManager.default.fileExists(atPath: root + "/README.md"),
            "the real-projects corpus is missing: expected it at \(root) (../shared/real-projects beside the repository; CI provides it)"
        )
        return root
    }

    /// `<app>/head`.
    static func head(_ app: String) throws -> String {
        try require() + "/\(app)/head"
    }
}
