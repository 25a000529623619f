/// How ``ZipWriter`` builds a zip.
package struct ZipOptions: Sendable, Equatable {
    /// Deflate level 0...9; 0 stores entries uncompressed. `zip`'s default is 6.
    package var level: Int
    /// Same tree, same bytes: entries sorted, no timestamps (1980-01-01 00:00 in the DOS field), owner 0:0.
    package var deterministic: Bool
    /// `fnmatch(3)` patterns matched against each entry name and its last component (`*.DS_Store`).
    package var exclude: [String]

    /// Threads that compress; 0 means one per core. The zip's bytes do not depend on it.
    package var workers: Int
    /// Existing zips whose compressed entries are copied for files with the same name, size and CRC-32
    /// (the dSYM zip, when zipping the archive that contains the same dSYM), instead of compressing them again.
    package var reuse: [String]

    /// - Throws: ``ArchiveError/invalidLevel(_:)`` when `level` is outside 0...9.
    package init(level: Int = 6, deterministic: Bool = false, exclude: [String] = [], workers: Int = 0, reuse: [String] = []) throws(ArchiveError) {
        guard (0...9).contains(level) else { throw ArchiveError.invalidLevel(level) }
        self.level = level
        self.deterministic = deterministic
        self.exclude = exclude
        self.workers = max(0, workers)
        self.reuse = reuse
    }
}
