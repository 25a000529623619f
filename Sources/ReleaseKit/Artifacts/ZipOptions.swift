/// How ``ZipWriter`` builds a zip.
public struct ZipOptions: Sendable, Equatable {
    /// Deflate level 0...9; 0 stores entries uncompressed. `zip`'s default is 6.
    public var level: Int
    /// Same tree, same bytes: entries sorted, no timestamps (1980-01-01 00:00 in the DOS field), owner 0:0.
    public var deterministic: Bool
    /// `fnmatch(3)` patterns matched against each entry name and its last component (`*.DS_Store`).
    public var exclude: [String]

    /// - Throws: ``ArchiveError/invalidLevel(_:)`` when `level` is outside 0...9.
    public init(level: Int = 6, deterministic: Bool = false, exclude: [String] = []) throws(ArchiveError) {
        guard (0...9).contains(level) else { throw ArchiveError.invalidLevel(level) }
        self.level = level
        self.deterministic = deterministic
        self.exclude = exclude
    }
}
