import Foundation

/// Shell-style glob matching (`release*`, `v[0-9]*`), as `fnmatch(3)` does it.
package enum Glob {
    /// Whether `text` matches `pattern`. `*` matches `/` too, so `release*` matches `release/3.0.0`.
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }

    /// Regular files matching a glob pattern, sorted (glob(3) sorts them); folders and missing paths are left out.
    package static func files(matching pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }.filter { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// Whether `text` has glob characters.
    package static func isPattern(_ text: String) -> Bool {
        text.contains { "*?[".contains($0) }
    }
}
