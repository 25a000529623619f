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

    /// `relative` joined to `base` with `.` and `..` removed lexically (never through the file system): `a/b` + `../c`
    /// → `a/c`. An absolute `relative` is returned normalised.
    public static func lexicallyJoined(_ base: String, _ relative: String) -> String {
        let full = relative.hasPrefix("/") ? relative : (base.hasSuffix("/") ? base + relative : base + "/" + relative)
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", full.hasPrefix("/") { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return full.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
