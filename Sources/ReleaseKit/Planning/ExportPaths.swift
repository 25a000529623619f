import Foundation

/// Paths as an exported CI configuration names them: relative to the repository's top, where the jobs run, so the
/// same pipeline exports the same bytes from any folder and any checkout, and no local path is committed.
public enum ExportPaths {
    /// The nearest folder at or above `directory` that holds `.git` (a folder, or a worktree's file); nil outside a
    /// repository.
    public static func repositoryTop(containing directory: String) -> String? {
        var folder = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        while true {
            if FileManager.default.fileExists(atPath: folder + "/.git") { return folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }

    /// `path` (absolute, or relative to `directory`) relative to `top` when it lies inside it, else absolute.
    public static func relative(_ path: String, in directory: String, to top: String) -> String {
        let absolute = Self.resolved(path.hasPrefix("/") ? path : directory + "/" + path)
        let base = Self.resolved(top)
        if absolute == base { return "." }
        if base == "/" { return String(absolute.dropFirst()) }
        return absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
    }

    /// `path` with `.`, `..` and symbolic links resolved as far as it exists (`/tmp` is `/private/tmp` on macOS), the
    /// rest appended as written.
    static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var existing = url
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        let base = existing.resolvingSymlinksInPath().path
        return ([base == "/" ? "" : base] + rest).joined(separator: "/")
    }
}
