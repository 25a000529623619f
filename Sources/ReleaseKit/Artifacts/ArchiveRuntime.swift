internal import CArchive

/// Information about the linked libarchive.
public enum ArchiveRuntime {
    /// The linked libarchive's version string, for example `libarchive 3.6.2`.
    public static var version: String {
        String(cString: archive_version_string())
    }
}
