/// One entry of a zip, as libarchive reads it from the central directory.
package struct ZipEntry: Sendable, Equatable, Codable {
    /// What an entry is.
    package enum Kind: String, Sendable, Codable {
        case file, directory, symlink, other
    }

    /// The entry's name, without the trailing `/` folders carry in the zip.
    package var path: String
    /// File, folder, link or other.
    package var kind: Kind
    /// Uncompressed size of a file's data (0 for folders and links).
    package var size: Int64
    /// Permission bits (`0o755`), without the file type.
    package var permissions: UInt32
    /// Where a link points, exactly as stored.
    package var symlinkTarget: String?

    package init(path: String, kind: Kind, size: Int64, permissions: UInt32, symlinkTarget: String? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.permissions = permissions
        self.symlinkTarget = symlinkTarget
    }

    private enum CodingKeys: String, CodingKey {
        case path, kind, size, permissions
        case symlinkTarget = "symlink_target"
    }
}
