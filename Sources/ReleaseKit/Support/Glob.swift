#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shell-style glob matching (`release*`, `v[0-9]*`), as `fnmatch(3)` does it.
public enum Glob {
    /// Whether `text` matches `pattern`. `*` matches `/` too, so `release*` matches `release/3.0.0`.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }

    /// Whether `text` has glob characters.
    public static func isPattern(_ text: String) -> Bool {
        text.contains { "*?[".contains($0) }
    }
}
