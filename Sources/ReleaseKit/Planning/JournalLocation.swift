import Foundation

/// Where a run keeps its journal (what `--resume` reads, and what carries a run's state from one CI machine to the
/// next): inside `.git/` when the working directory is a repository's top, so it never shows as an untracked file,
/// else in `.release/`.
package enum JournalLocation {
    /// The journal folder inside a repository, relative to its top: what an exported workflow hands between jobs.
    package static let gitFolder = ".git/release-journal"
    /// The journal folder elsewhere, relative to the working directory.
    package static let plainFolder = ".release/journal"

    /// The journal folder for runs in `directory`.
    package static func folder(in directory: String) -> String {
        var isDirectory: ObjCBool = false
        let git = (directory as NSString).appendingPathComponent(".git")
        let relative = FileManager.default.fileExists(atPath: git, isDirectory: &isDirectory) && isDirectory.boolValue ? gitFolder : plainFolder
        return (directory as NSString).appendingPathComponent(relative)
    }
}
