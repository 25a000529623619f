import Foundation

/// Writes files so that readers see the old contents or the new, never a mix, and a failure leaves no
/// partial file: write a temporary file beside the target, flush it to storage (``Platform/flushToStorage(_:)``: on
/// macOS `fsync` alone leaves it in the drive's cache), `rename(2)` it over the target, then flush the folder.
package enum AtomicFile {
    /// Writes `data` to `path` atomically, keeping the existing file's permissions.
    package static func write(_ data: Data, to path: String) throws {
        let temporary = temporaryPath(for: path)
        let mode = existingMode(of: path) ?? 0o644
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: mode]) else {
            throw AtomicFileError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        try commit(temporary, to: path)
    }

    /// Writes `text` as UTF-8 to `path` atomically.
    package static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `temporary` (a ``temporaryPath(for:)`` of `path`), created with `mode` and never over an
    /// existing file; ``commit(_:to:)`` then renames it over `path`.
    /// - Throws: ``AtomicFileError/cannotWrite(path:reason:)`` for `path`, whose reason says which step failed
    ///   (creating, writing, flushing or closing the temporary file) and the system's reason; nothing is left
    ///   behind.
    package static func writeTemporary(_ data: Data, at temporary: String, for path: String, mode: Int) throws {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode_t(mode))
        guard descriptor >= 0 else {
            throw AtomicFileError.cannotWrite(path: path, reason: "cannot create temporary file '\(temporary)': \(Platform.errorText(Platform.errorNumber))")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if written < 0 {
                    if Platform.errorNumber == EINTR { continue }
                    failure = "cannot write temporary file '\(temporary)': \(Platform.errorText(Platform.errorNumber))"
                    return
                }
                offset += written
            }
        }
        if failure == nil, !Platform.flushToStorage(descriptor) {
            failure = "cannot flush temporary file '\(temporary)': \(Platform.errorText(Platform.errorNumber))"
        }
        if close(descriptor) != 0, failure == nil {
            failure = "cannot close temporary file '\(temporary)': \(Platform.errorText(Platform.errorNumber))"
        }
        if let failure {
            unlink(temporary)
            throw AtomicFileError.cannotWrite(path: path, reason: failure)
        }
    }

    /// A temporary path in the same directory as `path` (same file system, so `rename` is atomic).
    package static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Removes the temporary files process `pid` left in `folder` (``temporaryPath(for:)`` names them
    /// `.NAME.tmp-PID-RANDOM`), for a run that follows one that was killed; only `names` when given.
    /// - Returns: how many were removed.
    @discardableResult
    package static func removeTemporaries(of pid: Int32, in folder: String, names: Set<String>? = nil) -> Int {
        var removed = 0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard entry.hasPrefix("."), let range = entry.range(of: ".tmp-\(pid)-", options: .backwards),
                entry[range.upperBound...].allSatisfy(\.isNumber)
            else { continue }
            if let names, !names.contains(String(entry[entry.index(after: entry.startIndex)..<range.lowerBound])) { continue }
            if unlink((folder as NSString).appendingPathComponent(entry)) == 0 { removed += 1 }
        }
        return removed
    }

    /// Flushes `temporary` to disk and renames it over `path`; removes `temporary` on failure.
    package static func commit(_ temporary: String, to path: String) throws {
        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 {
            _ = Platform.flushToStorage(descriptor)
            close(descriptor)
        }
        if rename(temporary, path) != 0 {
            let reason = "cannot rename '\(temporary)' over it: \(String(cString: strerror(errno)))"
            unlink(temporary)
            throw AtomicFileError.cannotWrite(path: path, reason: reason)
        }
        // The rename itself lives in the folder's entry: flush the folder too, or a crash can bring back the old file.
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY)
        if folder >= 0 {
            _ = Platform.flushToStorage(folder)
            close(folder)
        }
    }

    private static func existingMode(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o7777)
    }
}
