import Foundation
import ReleaseSupport

/// Paths as an exported CI configuration names them: relative to the repository's top, where the jobs run, so the
/// same pipeline exports the same bytes from any folder and any checkout, and no local path is committed.
///
/// Arithmetic is lexical (``FilePath``): the working directory is canonical already (``Platform/currentDirectory()``),
/// so `/tmp` and `/private/tmp` never both appear, and nothing here asks the file system how a path is spelled.
package enum ExportPaths {
    /// The nearest folder at or above `directory` that holds `.git` (a folder, or a worktree's file); nil outside a
    /// repository.
    package static func repositoryTop(containing directory: String) -> String? {
        var folder = FilePath.absolute(directory)
        while true {
            if FileManager.default.fileExists(atPath: (folder == "/" ? "" : folder) + "/.git") { return folder }
            let parent = FilePath.parent(of: folder)
            if parent == folder { return nil }
            folder = parent
        }
    }

    /// `path` (absolute, or relative to `directory`) relative to `top` when it lies inside it, else absolute.
    package static func relative(_ path: String, in directory: String, to top: String) -> String {
        let absolute = FilePath.absolute(path, in: FilePath.absolute(directory))
        return FilePath.relative(absolute, to: FilePath.absolute(top)) ?? absolute
    }
}
