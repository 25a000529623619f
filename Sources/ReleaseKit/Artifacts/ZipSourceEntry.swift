/// One file, folder or symbolic link of a tree being zipped, as `lstat` saw it.
struct ZipSourceEntry: Sendable, Equatable {
    /// What the entry is. Links are never followed: their target is stored as the entry's data.
    enum Kind: Sendable, Equatable {
        case file
        case directory
        case symlink(target: String)
    }

    /// Absolute path on disk.
    var path: String
    /// Name inside the zip, relative to the source's parent; folders end with `/`.
    var entryName: String
    var kind: Kind
    /// Full `st_mode`: type and permission bits, stored in the zip's external attributes as `zip -y` does.
    var mode: UInt32
    /// Bytes of data (0 for folders and links).
    var size: Int64
    /// Seconds since 1970.
    var modificationTime: Int
    var uid: UInt32
    var gid: UInt32
}
