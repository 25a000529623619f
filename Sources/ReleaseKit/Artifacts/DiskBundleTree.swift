import Foundation

/// A folder on disk seen as a ``BundleTree``.
struct DiskBundleTree: BundleTree {
    /// Absolute path of the root folder.
    let root: String

    private func absolute(_ path: String) -> String {
        path.isEmpty ? root : root + "/" + path
    }

    func kind(of path: String) -> ZipEntry.Kind? {
        var info = stat()
        guard lstat(absolute(path), &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    func children(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: absolute(path))) ?? []).sorted()
    }

    func linkTarget(of path: String) -> String? {
        try? ZipSourceTree.readLink(absolute(path))
    }

    func contents(of path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: absolute(path)) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: 4 << 20)
    }

    func machOFiles(_ paths: [String]) throws -> [String: Result<MachOFile, MachOError>] {
        var files: [String: Result<MachOFile, MachOError>] = [:]
        for path in paths {
            do {
                var file = try MachOReader.read(path: absolute(path))
                file.path = path
                files[path] = .success(file)
            } catch {
                files[path] = .failure(error)
            }
        }
        return files
    }
}
