import Foundation

/// Mach-O bytes read from a file with `pread`, only where the reader asks, so a 2 GB dSYM costs a few
/// kilobytes. Owns its file descriptor.
package final class MachOFileSource: MachOByteSource {
    /// The file read.
    package let path: String
    /// Its size, from `fstat`.
    package let size: Int64?
    private let descriptor: Int32
    /// Bytes read so far (for tests and the performance budget).
    package private(set) var bytesRead: Int64 = 0

    /// Opens `path` for reading.
    /// - Throws: ``MachOError/unreadable(path:reason:)``.
    package init(path: String) throws(MachOError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MachOError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw MachOError.unreadable(path: path, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw MachOError.unreadable(path: path, reason: "not a regular file")
        }
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    package func read(offset: Int64, count: Int) throws(MachOError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = result.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw MachOError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        bytesRead += Int64(filled)
        result.removeSubrange(filled...)
        return result
    }
}
