internal import CArchive

/// Information about the linked libarchive.
package enum ArchiveRuntime {
    /// The linked libarchive's version string, for example `libarchive 3.6.2`.
    package static var version: String {
        String(cString: archive_version_string())
    }
}
