/// Path arithmetic on strings, lexical: nothing here asks the file system.
///
/// Foundation's `NSString.deletingLastPathComponent` traps on short paths such as `"/a"` and `"a"` with the
/// Linux toolchain this project builds with (swift-corelibs-foundation), so nothing here goes through it.
/// Nor through `URL.standardizedFileURL` / `NSString.standardizingPath`: swift-foundation's `_standardizingPath`
/// (Sources/FoundationEssentials/String/String+Path.swift) resolves symlinks when the path has a `..` and, on a Mac,
/// strips a leading `/private` only when the shorter path exists, so one folder (`/private/var/folders/...`, where
/// `$TMPDIR` and `getcwd` lead) would be spelled two ways depending on whether a file exists yet. The working
/// directory is made canonical once (``Platform/currentDirectory()``, `realpath`); every path after that is
/// joined and normalised here.
package enum FilePath {
    /// The folder containing `path`: `/a/b` → `/a`, `/a` → `/`, `a/b` → `a`, `a` → `.`, `/` → `/`.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        return String(parent)
    }

    /// `path` with `.` segments, repeated and trailing slashes removed and each `..` taking away the segment before
    /// it, without reading the file system: `/a/./b//../c/` → `/a/c`, `/..` → `/`, `a/../..` → `..`, `` → `.`.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var kept: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                if let last = kept.last, last != ".." { kept.removeLast() } else if !absolute { kept.append(segment) }
            default: kept.append(segment)
            }
        }
        let joined = kept.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// `path` made absolute against `directory` (itself absolute) and ``normalized(_:)``; an absolute `path` is
    /// only normalised.
    package static func absolute(_ path: String, in directory: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        return normalized(directory + "/" + path)
    }

    /// `path` made absolute against the (canonical) working directory and ``normalized(_:)``.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? normalized(path) : absolute(path, in: Platform.currentDirectory())
    }

    /// `path` relative to `directory` when it lies inside it (both normalised first), else nil: `/a/b/c` in `/a` →
    /// `b/c`, `/a` in `/a` → `.`.
    package static func relative(_ path: String, to directory: String) -> String? {
        let full = normalized(path), base = normalized(directory)
        if full == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : nil
    }
}
