import Foundation

/// Where git keeps a checkout's own files, found as `git rev-parse --git-dir` finds it but without running git: the
/// first `.git` in the folder or one of its parents; a folder is the git dir itself, a file (a linked worktree's or
/// a submodule's `gitdir: PATH`) names it.
///
/// A linked worktree's git dir is its own (`.git/worktrees/NAME` of the main checkout, whose `commondir` leads back
/// to the shared repository): it is a checkout of its own, with its own files, so what is kept per checkout (the run
/// lock, an unfinished bump) goes there, not in the shared `--git-common-dir`.
package enum GitDirectory {
    /// The git dir of the checkout holding `directory`, or nil outside a repository.
    package static func of(_ directory: String) -> String? {
        var folder = FilePath.absolute(directory)
        while true {
            let candidate = folder == "/" ? "/.git" : folder + "/.git"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
                if isDirectory.boolValue { return candidate }
                if let target = pointer(in: candidate, from: folder) { return target }
            }
            if folder == "/" { return nil }
            folder = FilePath.parent(of: folder)
        }
    }

    /// The root of the checkout holding `directory`: the folder holding its `.git` (a folder or a worktree's file),
    /// else `directory` itself (state goes to its `.release/`).
    package static func checkoutRoot(of directory: String) -> String {
        var folder = FilePath.absolute(directory)
        while true {
            let candidate = folder == "/" ? "/.git" : folder + "/.git"
            if FileManager.default.fileExists(atPath: candidate) { return folder }
            if folder == "/" { return FilePath.absolute(directory) }
            folder = FilePath.parent(of: folder)
        }
    }

    /// The folder for a checkout's state in `directory`: its git dir, else `.release/` in `directory` (created when
    /// missing).
    package static func stateFolder(for directory: String) throws -> String {
        if let git = of(directory) { return git }
        let folder = (directory as NSString).appendingPathComponent(".release")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The folder a `.git` file names (`gitdir: PATH`, relative to the file's folder), when it exists.
    private static func pointer(in file: String, from folder: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard line.hasPrefix("gitdir:") else { return nil }
        let target = line.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
        guard !target.isEmpty else { return nil }
        let path = target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return FilePath.absolute(path)
    }
}
