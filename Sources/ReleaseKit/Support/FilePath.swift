/// Path arithmetic on strings.
///
/// Foundation's `NSString.deletingLastPathComponent` traps on short paths such as `"/a"` and `"a"` with the
/// Linux toolchain this project builds with (swift-corelibs-foundation), so nothing here goes through it.
public enum FilePath {
    /// The folder containing `path`: `/a/b` → `/a`, `/a` → `/`, `a/b` → `a`, `a` → `.`, `/` → `/`.
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        return String(parent)
    }
}
