import Foundation

/// The local file system as steps use it: what is at a path, and the few changes they make. Steps reach it as
/// ``StepContext/files`` (helpers without a context make their own: it holds no state), so no step spells
/// `FileManager` with an `ObjCBool`, or a `stat`, of its own. Errors are Foundation's, unchanged.
package struct LocalFiles: Sendable {
    /// What a path names, links followed.
    package enum Kind: Sendable, Equatable {
        /// A regular file (or anything that is not a folder: a device, a socket).
        case file
        /// A folder.
        case directory
    }

    package init() {}

    // MARK: Information

    /// What `path` is, following links; nil when nothing is there.
    package func kind(_ path: String) -> Kind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }

    /// Whether something is at `path` (links followed).
    package func exists(_ path: String) -> Bool { kind(path) != nil }

    /// Whether `path` is a folder (links followed).
    package func isDirectory(_ path: String) -> Bool { kind(path) == .directory }

    /// The size in bytes of what is at `path` (links followed); nil when nothing is there.
    package func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// When what is at `path` was last modified (the link itself, for a link); nil when nothing is there.
    package func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// The names in the folder `path`, sorted; nil when it cannot be listed.
    package func names(in path: String) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted()
    }

    /// The bytes of the file at `path`; nil when it cannot be read.
    package func contents(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// The user's cache folder: `~/Library/Caches` on macOS, `$XDG_CACHE_HOME` or `~/.cache` elsewhere.
    package var userCacheFolder: String? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.path
    }

    // MARK: Changes

    /// Creates the folder `path`, with its missing parents unless `parents` is false (then it must not exist yet).
    /// - Parameter permissions: POSIX permissions of the new folder (`0o700`), else the umask's.
    package func createDirectory(_ path: String, parents: Bool = true, permissions: Int? = nil) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: parents,
            attributes: permissions.map { [.posixPermissions: $0] })
    }

    /// Creates (or empties) the file `path` with `contents`; false when it cannot.
    /// - Parameter permissions: POSIX permissions (`0o600` for a secret), else the umask's.
    @discardableResult
    package func createFile(_ path: String, contents: Data? = nil, permissions: Int? = nil) -> Bool {
        FileManager.default.createFile(atPath: path, contents: contents, attributes: permissions.map { [.posixPermissions: $0] })
    }

    /// Removes the file or folder (with what it holds) at `path`.
    package func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: path)
    }

    /// Moves (renames) `source` to `destination`, which must not exist.
    package func move(_ source: String, to destination: String) throws {
        try FileManager.default.moveItem(atPath: source, toPath: destination)
    }
}
