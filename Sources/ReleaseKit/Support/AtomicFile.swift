import Foundation

/// Writes files so that readers see the old contents or the new, never a mix, and a failure leaves no
/// partial file: write a temporary file beside the target, flush it, then `rename(2)` over the target.
public enum AtomicFile {
    /// Writes `data` to `path` atomically, keeping the existing file's permissions.
    public static func write(_ data: Data, to path: String) throws {
        let temporary = temporaryPath(for: path)
        let mode = existingMode(of: path) ?? 0o644
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: mode]) else {
            throw AtomicFileError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        try commit(temporary, to: path)
    }

    /// Writes `text` as UTF-8 to `path` atomically.
    public static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// A temporary path in the same directory as `path` (same file system, so `rename` is atomic).
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Flushes `temporary` to disk and renames it over `path`; removes `temporary` on failure.
    public static func commit(_ temporary: String, to path: String) throws {
        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AtomicFileError.cannotWrite(path: path, reason: reason)
        }
    }

    private static func existingMode(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o7777)
    }
}
